import { Injectable } from '@nestjs/common';
import { STATUS_PAGE_LIMITS, type StatusState } from '@cronbeam/shared/notifications/status-pages';
import { epochDay, type FailureEpisode, type OutcomeDay } from '../../common/history/outcome-history';
import { JobsService } from '../jobs/jobs.service';
import { MonitorsService } from '../monitors/monitors.service';
import { RunsService } from '../runs/runs.service';
import type { StatusPageItemRow } from './status-pages.repository';
import type { ReadFrom } from '../../database/read-database';

/** One day of an item's uptime bar: null when nothing ran. */
export interface UptimeDay {
  day: number;
  ok: number;
  failed: number;
}

/** What the public sees of one item: its public name, never its target, headers or ids. */
export interface ItemHistory {
  subjectId: string;
  kind: 'job' | 'monitor';
  name: string;
  state: StatusState;
  /** Oldest first, one per day of the history (today last). */
  days: UptimeDay[];
  /** Share of successful outcomes over the history, in percent; null with none. */
  uptime: number | null;
}

export interface IncidentHistory extends FailureEpisode {
  kind: 'job' | 'monitor';
  name: string;
}

export interface HistorySnapshot {
  items: ItemHistory[];
  /** Newest first. */
  incidents: IncidentHistory[];
}

/** Truncated to hundredths, so a single failure among 10,000 runs never shows as 100%. */
export function uptimePercent(ok: number, failed: number): number | null {
  const total = ok + failed;
  return total === 0 ? null : Math.floor((ok / total) * 10_000) / 100;
}

/** The worst state among items: one failing item makes the page failing. */
export function overallState(states: StatusState[]): StatusState {
  for (const state of ['down', 'up', 'paused'] as const) if (states.includes(state)) return state;
  return 'unknown';
}

/**
 * The run history of an owner's jobs and monitors as status pages and badges
 * show it: states, 90 daily outcome counts and the failure episodes, from
 * five aggregate queries however many items there are. Items that are no
 * longer the owner's (deleted, transferred) are left out.
 */
@Injectable()
export class StatusHistoryService {
  constructor(
    private readonly jobs: JobsService,
    private readonly monitors: MonitorsService,
    private readonly runs: RunsService,
  ) {}

  /** The start of the history window: midnight UTC, historyDays - 1 days before today. */
  static since(now: Date): Date {
    return new Date((epochDay(now) - STATUS_PAGE_LIMITS.historyDays + 1) * 86_400_000);
  }

  /**
   * The items with each tag replaced by the owner's jobs and monitors that
   * carry it (each under its own name), at the tag's place, leaving out any
   * already on the page.
   */
  async expand(accountId: string, items: StatusPageItemRow[], from: ReadFrom): Promise<StatusPageItemRow[]> {
    if (!items.some((i) => i.tag)) return items;
    const named = new Set(items.flatMap((i) => [i.job_id, i.monitor_id]).filter(Boolean));
    const expanded: StatusPageItemRow[] = [];
    for (const item of items) {
      if (!item.tag) {
        expanded.push(item);
        continue;
      }
      const [jobs, monitors] = await Promise.all([this.jobs.list(accountId, from, item.tag), this.monitors.list(accountId, item.tag)]);
      for (const id of [...jobs.map((j) => `j${j.job_id}`), ...monitors.map((m) => `m${m.monitor_id}`)]) {
        const subject = id.slice(1);
        if (named.has(subject)) continue;
        named.add(subject);
        expanded.push({ job_id: id[0] === 'j' ? subject : null, monitor_id: id[0] === 'm' ? subject : null, tag: null, label: null });
      }
    }
    return expanded;
  }

  /** `from`: 'replica' for what is shown; 'primary' when the snapshot decides a write (a note needs its incident to exist). */
  async snapshot(accountId: string, pageItems: StatusPageItemRow[], incidentLimit: number, from: ReadFrom, now = new Date()): Promise<HistorySnapshot> {
    const items = await this.expand(accountId, pageItems, from);
    const since = StatusHistoryService.since(now);
    const jobIds = items.flatMap((i) => (i.job_id ? [i.job_id] : []));
    const monitorIds = items.flatMap((i) => (i.monitor_id ? [i.monitor_id] : []));
    const [jobs, monitors] = await Promise.all([this.jobs.summaries(accountId, jobIds), this.monitors.summaries(accountId, monitorIds)]);
    const ownJobs = jobs.map((j) => j.id);
    const ownMonitors = monitors.map((m) => m.id);
    const [failing, jobDays, monitorDays, jobEpisodes, monitorEpisodes] = await Promise.all([
      this.runs.failingNow(ownJobs, since, from),
      this.runs.outcomeDays(ownJobs, since, from),
      this.monitors.outcomeDays(ownMonitors, since, from),
      this.runs.failureEpisodes(ownJobs, since, incidentLimit, from),
      this.monitors.failureEpisodes(ownMonitors, since, incidentLimit, from),
    ]);
    const daysBySubject = groupBy([...jobDays, ...monitorDays]);
    const failingJobs = new Set(failing);
    const jobById = new Map(jobs.map((j) => [j.id, j]));
    const monitorById = new Map(monitors.map((m) => [m.id, m]));
    const names = new Map<string, string>();
    const history: ItemHistory[] = [];
    for (const item of items) {
      const job = item.job_id ? jobById.get(item.job_id) : undefined;
      const monitor = item.monitor_id ? monitorById.get(item.monitor_id) : undefined;
      const subject = job ?? monitor;
      if (!subject) continue;
      const name = item.label ?? subject.name;
      names.set(subject.id, name);
      const counted = daysBySubject.get(subject.id) ?? [];
      const days = windowDays(counted, now);
      const ok = counted.reduce((n, d) => n + d.ok, 0);
      const failed = counted.reduce((n, d) => n + d.failed, 0);
      let state: StatusState;
      if (job) {
        if (job.status === 'paused' || job.status === 'quota_reached') state = 'paused';
        else if (failingJobs.has(job.id)) state = 'down';
        else state = ok + failed > 0 ? 'up' : 'unknown';
      } else {
        state = ({ up: 'up', down: 'down', paused: 'paused', new: 'unknown' } as const)[monitor!.status];
      }
      history.push({ subjectId: subject.id, kind: job ? 'job' : 'monitor', name, state, days, uptime: uptimePercent(ok, failed) });
    }
    const incidents = [...jobEpisodes.map((e) => ({ ...e, kind: 'job' as const })), ...monitorEpisodes.map((e) => ({ ...e, kind: 'monitor' as const }))]
      .filter((e) => names.has(e.subjectId))
      .map((e) => ({ ...e, name: names.get(e.subjectId)! }))
      .sort((a, b) => +b.startedAt - +a.startedAt)
      .slice(0, incidentLimit);
    return { items: history, incidents };
  }
}

function groupBy(days: OutcomeDay[]): Map<string, OutcomeDay[]> {
  const bySubject = new Map<string, OutcomeDay[]>();
  for (const d of days) {
    const list = bySubject.get(d.subjectId) ?? [];
    list.push(d);
    bySubject.set(d.subjectId, list);
  }
  return bySubject;
}

/** One entry per day of the window, oldest first, zero where nothing ran. */
function windowDays(counted: OutcomeDay[], now: Date): UptimeDay[] {
  const today = epochDay(now);
  const byDay = new Map(counted.map((d) => [d.day, d]));
  return Array.from({ length: STATUS_PAGE_LIMITS.historyDays }, (_, i) => {
    const day = today - STATUS_PAGE_LIMITS.historyDays + 1 + i;
    const d = byDay.get(day);
    return { day, ok: d?.ok ?? 0, failed: d?.failed ?? 0 };
  });
}
