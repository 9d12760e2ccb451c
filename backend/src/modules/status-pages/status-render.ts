import { createHash } from 'node:crypto';
import type { StatusState } from '@cronbeam/shared/notifications/status-pages';
import { overallState, type HistorySnapshot, type IncidentHistory, type UptimeDay } from './status-history.service';

/**
 * The public status page, its Atom feed and badges, rendered on the server
 * from a history snapshot. They carry what the owner chose to publish and
 * nothing else: the page's title, item names (or the labels given), states,
 * counts and the owner's notes. Never a target URL, header, body, error
 * message or id (entry ids in the feed are hashes).
 */

export interface RenderedPage {
  title: string;
  snapshot: HistorySnapshot;
  /** The owner's notes by `${subjectId} ${startedAt ms}`. */
  notes: Map<string, string>;
}

export const noteKey = (subjectId: string, startedAt: Date) => `${subjectId} ${startedAt.getTime()}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STATE_TEXT: Record<StatusState, string> = { up: 'Operational', down: 'Failing', paused: 'Paused', unknown: 'No data' };
const OVERALL_TEXT: Record<StatusState, string> = { up: 'All systems operational', down: 'Some systems are failing', paused: 'Monitoring is paused', unknown: 'No data yet' };

const isoDay = (day: number) => new Date(day * 86_400_000).toISOString().slice(0, 10);
const percent = (value: number | null) => (value === null ? 'no data' : `${value}%`);

function barClass(d: UptimeDay): string {
  if (d.ok + d.failed === 0) return 'n';
  if (d.failed === 0) return 'u';
  return d.ok / (d.ok + d.failed) >= 0.9 ? 'p' : 'd';
}

function barTitle(d: UptimeDay): string {
  const total = d.ok + d.failed;
  return total === 0 ? `${isoDay(d.day)}: no runs` : `${isoDay(d.day)}: ${d.ok} of ${total} succeeded`;
}

const when = (at: Date) => `<time datetime="${at.toISOString()}">${at.toISOString().slice(0, 16).replace('T', ' ')} UTC</time>`;

function incidentHtml(incident: IncidentHistory, note: string | undefined): string {
  const ended = incident.resolvedAt ? `Resolved ${when(incident.resolvedAt)}` : 'Ongoing';
  const failures = `${incident.failures} failed ${incident.kind === 'job' ? 'run' : 'check'}${incident.failures === 1 ? '' : 's'}`;
  return `<li class="inc"><h3>${escapeHtml(incident.name)} <span class="s ${incident.resolvedAt ? 'up' : 'down'}">${incident.resolvedAt ? 'Resolved' : 'Ongoing'}</span></h3>
<p>Started ${when(incident.startedAt)} · ${ended} · ${failures}</p>${note ? `<p class="note">${escapeHtml(note)}</p>` : ''}</li>`;
}

const STYLE = `*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2933;background:#f5f7fa}
main{max-width:860px;margin:0 auto;padding:24px 16px}h1{font-size:1.75rem;margin:0 0 12px}h2{font-size:1.25rem;margin:32px 0 12px}h3{font-size:1rem;margin:0}
.banner{padding:14px 16px;border-radius:8px;font-weight:600;color:#fff}.banner.up{background:#17693b}.banner.down{background:#b42318}.banner.paused,.banner.unknown{background:#4b5563}
ul{list-style:none;margin:0;padding:0}.item,.inc{background:#fff;border:1px solid #d9e2ec;border-radius:8px;padding:14px 16px;margin-bottom:12px}
.row{display:flex;justify-content:space-between;gap:12px;flex-wrap:wrap}.name{font-weight:600}.s{font-weight:600;font-size:.875rem}.s.up{color:#17693b}.s.down{color:#b42318}.s.paused,.s.unknown{color:#4b5563}
.bars{display:flex;gap:2px;height:34px;margin:10px 0 4px}.bars span{flex:1;border-radius:2px}.u{background:#2f9e5a}.p{background:#d9a400}.d{background:#d92d20}.n{background:#cbd2d9}
.legend{display:flex;justify-content:space-between;font-size:.8125rem;color:#52606d}.note{white-space:pre-wrap;margin:8px 0 0;color:#323f4b}.inc p{margin:4px 0 0;font-size:.9375rem;color:#3e4c59}
footer{margin-top:32px;font-size:.875rem;color:#52606d}a{color:#1d4ed8}`;

/** The status page. `feedPath` is where its Atom feed is reached from this host. */
export function statusPageHtml(page: RenderedPage, feedPath: string): string {
  const { items, incidents } = page.snapshot;
  const overall = overallState(items.map((i) => i.state));
  const title = escapeHtml(page.title);
  const itemsHtml = items
    .map((item) => {
      const bars = item.days.map((d) => `<span class="${barClass(d)}" title="${barTitle(d)}"></span>`).join('');
      return `<li class="item"><div class="row"><span class="name">${escapeHtml(item.name)}</span><span class="s ${item.state}">${STATE_TEXT[item.state]}</span></div>
<div class="bars" role="img" aria-label="Uptime over 90 days: ${percent(item.uptime)}">${bars}</div>
<div class="legend"><span>90 days ago</span><span>${percent(item.uptime)} uptime</span><span>Today</span></div></li>`;
    })
    .join('\n');
  const incidentsHtml = incidents.length ? `<ul>${incidents.map((i) => incidentHtml(i, page.notes.get(noteKey(i.subjectId, i.startedAt)))).join('\n')}</ul>` : '<p>No incidents in the last 90 days.</p>';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${title} status</title><meta name="description" content="Current status, 90-day uptime and incidents of ${title}.">
<link rel="alternate" type="application/atom+xml" title="${title} incidents" href="${escapeHtml(feedPath)}">
<style>${STYLE}</style></head>
<body><main><h1>${title}</h1><p class="banner ${overall}">${OVERALL_TEXT[overall]}</p>
<h2>Components</h2><ul>${itemsHtml || '<li class="item">Nothing published yet.</li>'}</ul>
<h2>Incidents</h2>${incidentsHtml}
<footer><a href="${escapeHtml(feedPath)}">Incidents feed (Atom)</a> · Status page by Cronbeam</footer></main></body></html>`;
}

/** A stable URN for a feed entry: a hash, so no internal id is published. */
function urn(...parts: string[]): string {
  const h = createHash('sha256').update(parts.join('\n')).digest('hex');
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const escapeXml = escapeHtml;

/** The Atom feed of the page's incidents: one entry per incident, updated when it ends or its note changes. */
export function incidentsFeed(page: RenderedPage & { pageId: string }, pageUrl: string, feedUrl: string, now: Date): string {
  const entries = page.snapshot.incidents.map((i) => {
    const note = page.notes.get(noteKey(i.subjectId, i.startedAt));
    const state = i.resolvedAt ? `resolved at ${i.resolvedAt.toISOString()}` : 'ongoing';
    const text = `${i.name}: failing since ${i.startedAt.toISOString()}, ${state} (${i.failures} failed).${note ? `\n\n${note}` : ''}`;
    const updated = i.resolvedAt ?? i.startedAt;
    return `<entry><title>${escapeXml(`${i.name}: ${i.resolvedAt ? 'resolved' : 'failing'}`)}</title><id>${urn(page.pageId, i.subjectId, String(i.startedAt.getTime()))}</id>
<published>${i.startedAt.toISOString()}</published><updated>${updated.toISOString()}</updated><link rel="alternate" type="text/html" href="${escapeXml(pageUrl)}"/>
<content type="text">${escapeXml(text)}</content></entry>`;
  });
  const updated = page.snapshot.incidents.reduce<Date | null>((latest, i) => {
    const at = i.resolvedAt ?? i.startedAt;
    return !latest || at > latest ? at : latest;
  }, null);
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom"><title>${escapeXml(page.title)} incidents</title><id>${urn(page.pageId)}</id>
<updated>${(updated ?? now).toISOString()}</updated><author><name>${escapeXml(page.title)}</name></author>
<link rel="alternate" type="text/html" href="${escapeXml(pageUrl)}"/><link rel="self" type="application/atom+xml" href="${escapeXml(feedUrl)}"/>
${entries.join('\n')}
</feed>
`;
}

const BADGE_COLOR: Record<StatusState, string> = { up: '#17693b', down: '#b42318', paused: '#4b5563', unknown: '#4b5563' };
const BADGE_TEXT: Record<StatusState, string> = { up: 'up', down: 'failing', paused: 'paused', unknown: 'no data' };

/** Roughly Verdana 11px: wide enough for the text without measuring it. */
const textWidth = (text: string) => Math.ceil(text.length * 6.6) + 12;

/** A flat badge: the subject's name on the left, its state and uptime on the right. */
export function badgeSvg(label: string, state: StatusState, uptime: number | null): string {
  const name = label.length > 40 ? `${label.slice(0, 39)}…` : label;
  const value = uptime === null ? BADGE_TEXT[state] : `${BADGE_TEXT[state]} · ${uptime}%`;
  const left = textWidth(name);
  const right = textWidth(value);
  const total = left + right;
  const title = escapeXml(`${name}: ${value}`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${total}" height="20" role="img" aria-label="${title}"><title>${title}</title>
<rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${BADGE_COLOR[state]}"/>
<g fill="#fff" text-anchor="middle" font-family="Verdana,DejaVu Sans,sans-serif" font-size="11"><text x="${left / 2}" y="14">${escapeXml(name)}</text><text x="${left + right / 2}" y="14">${escapeXml(value)}</text></g></svg>
`;
}
