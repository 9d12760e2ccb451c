import { createHash, createHmac } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER, type AlertChannelKind, type AlertDelivery } from '@cronbeam/shared/notifications/alert-channels';

/** What an alert is about, in the words every channel shows. */
export interface AlertEvent {
  event: AlertDelivery['event'];
  /** What the alert is about: one of the account's jobs (the default) or a heartbeat monitor (jobId then holds its id). */
  source?: 'job' | 'monitor';
  jobId: string | null;
  jobName: string;
  jobUrl: string;
  /** One line: why it failed, when it recovered, that it paused. */
  detail: string;
  at: Date;
  dashboardUrl: string;
  /**
   * The failure episode the alert opens or closes: its `failed` and
   * `recovered` alerts share it, so PagerDuty resolves the incident the
   * failure triggered and Alertmanager receivers see one alert firing then
   * resolved. Absent for test alerts (each is its own episode).
   */
  episodeId?: string;
  /** When the episode opened: an Alertmanager alert's startsAt. */
  episodeStartedAt?: Date;
}

/** An HTTP request that delivers an alert. */
export interface AlertRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What a channel's request is built from besides the alert. */
export interface ChannelAddress {
  kind: Exclude<AlertChannelKind, 'email'>;
  target: string;
  /** The channel's secret, opened (a bot token, routing key, access or bearer token); null when it has none. */
  secret: string | null;
  /** The Bot API's base URL (TELEGRAM_API_URL). */
  telegramApiUrl: string;
}

const HEADLINES: Record<AlertDelivery['event'], (name: string) => string> = {
  failed: (name) => `Cronbeam: job "${name}" failed`,
  recovered: (name) => `Cronbeam: job "${name}" recovered`,
  auto_paused: (name) => `Cronbeam: job "${name}" was paused after repeated failures`,
  test: () => 'Cronbeam: test alert',
  certificate_expiring: (name) => `Cronbeam: the certificate of job "${name}" expires soon`,
  certificate_expired: (name) => `Cronbeam: the certificate of job "${name}" has expired`,
};

const MONITOR_HEADLINES: Partial<Record<AlertDelivery['event'], (name: string) => string>> = {
  failed: (name) => `Cronbeam: monitor "${name}" is down`,
  recovered: (name) => `Cronbeam: monitor "${name}" is up again`,
};

export function headline(alert: AlertEvent): string {
  const monitorHeadline = alert.source === 'monitor' ? MONITOR_HEADLINES[alert.event] : undefined;
  return (monitorHeadline ?? HEADLINES[alert.event])(alert.jobName);
}

const JSON_CONTENT = { 'content-type': 'application/json' };

/**
 * The request a channel of this kind expects, in its provider's documented
 * format: Slack, Discord and Teams message fields, Telegram's sendMessage,
 * PagerDuty's Events API v2 (trigger, then resolve under the episode's
 * dedup key), an ntfy publish (the text as body, the headline as Title),
 * Alertmanager's webhook payload (version 4), Opsgenie's Alert API (create,
 * then close by the episode's alias), or the whole event for a webhook.
 */
export function alertRequest(channel: ChannelAddress, alert: AlertEvent): AlertRequest {
  const text = `${headline(alert)}\n${alert.detail}\n${alert.dashboardUrl}`;
  const json = (body: unknown, headers: Record<string, string> = {}): AlertRequest => ({ url: channel.target, headers: { ...JSON_CONTENT, ...headers }, body: JSON.stringify(body) });
  const bearer: Record<string, string> = channel.secret ? { authorization: `Bearer ${channel.secret}` } : {};
  switch (channel.kind) {
    case 'slack':
      return json({ text });
    case 'discord':
      return json({ content: text.slice(0, 2000) });
    case 'telegram':
      return {
        ...json({ chat_id: channel.target, text: text.slice(0, 4096), link_preview_options: { is_disabled: true } }),
        url: `${withoutTrailingSlash(channel.telegramApiUrl)}/bot${channel.secret}/sendMessage`,
      };
    case 'teams':
      return json(teamsMessage(alert));
    case 'pagerduty':
      return json(pagerDutyEvent(channel.secret ?? '', alert));
    case 'ntfy':
      return {
        url: channel.target,
        headers: {
          'content-type': 'text/plain; charset=utf-8',
          // Header values must be Latin-1; a job name outside it is replaced rather than breaking the request.
          title: headline(alert).replace(/[^\x20-\x7e]/g, '?'),
          priority: alert.event === 'failed' || alert.event === 'auto_paused' ? 'high' : 'default',
          tags: alert.event === 'recovered' ? 'white_check_mark' : alert.event === 'test' ? 'bell' : 'rotating_light',
          click: alert.dashboardUrl,
          ...bearer,
        },
        body: `${alert.detail}`.slice(0, 4096),
      };
    case 'alertmanager':
      return json(alertmanagerPayload(alert), bearer);
    case 'opsgenie':
      return opsgenieRequest(channel, alert);
    case 'webhook':
      return json(webhookEvent(alert));
  }
}

function withoutTrailingSlash(url: string): string {
  return url.endsWith('/') ? url.slice(0, -1) : url;
}

/** Who an alert is about, as a stable key: PagerDuty's and Alertmanager's grouping. */
function subjectKey(alert: AlertEvent): string {
  return `${alert.source === 'monitor' ? 'monitor' : 'job'}:${alert.jobId ?? 'test'}`;
}

/**
 * The key of the alert's episode: the same for the alerts that open and close
 * it (PagerDuty's dedup_key, Alertmanager's fingerprint). A test, or a pause
 * outside any episode, is an incident of its own.
 */
function episodeKey(alert: AlertEvent): string {
  return alert.episodeId ? `cronbeam:${subjectKey(alert)}:${alert.episodeId}` : `cronbeam:${subjectKey(alert)}:${alert.event}:${alert.at.getTime()}`;
}

function pagerDutyEvent(routingKey: string, alert: AlertEvent): Record<string, unknown> {
  const dedupKey = episodeKey(alert);
  if (alert.event === 'recovered') return { routing_key: routingKey, event_action: 'resolve', dedup_key: dedupKey };
  return {
    routing_key: routingKey,
    event_action: 'trigger',
    dedup_key: dedupKey,
    payload: {
      summary: `${headline(alert)}: ${alert.detail}`.slice(0, 1024),
      source: alert.jobName.slice(0, 255) || 'cronbeam',
      severity: alert.event === 'test' ? 'info' : 'error',
      timestamp: alert.at.toISOString(),
      component: alert.source === 'monitor' ? 'monitor' : 'job',
      custom_details: { event: alert.event, detail: alert.detail },
    },
    client: 'Cronbeam',
    client_url: alert.dashboardUrl,
    links: [{ href: alert.dashboardUrl, text: 'Cronbeam dashboard' }],
  };
}

/**
 * Opsgenie's Alert API v2 with `Authorization: GenieKey <key>`: a failure
 * creates an alert whose alias is the episode's key (Opsgenie folds repeats of
 * an open alias into one alert), the recovery closes that alias.
 */
function opsgenieRequest(channel: ChannelAddress, alert: AlertEvent): AlertRequest {
  const headers = { ...JSON_CONTENT, authorization: `GenieKey ${channel.secret ?? ''}` };
  const alias = episodeKey(alert);
  const alerts = withoutTrailingSlash(channel.target);
  if (alert.event === 'recovered') {
    return { url: `${alerts}/${encodeURIComponent(alias)}/close?identifierType=alias`, headers, body: JSON.stringify({ source: 'Cronbeam', note: alert.detail.slice(0, 25_000) }) };
  }
  const subject = alert.source === 'monitor' ? 'monitor' : 'job';
  return {
    url: alerts,
    headers,
    body: JSON.stringify({
      message: headline(alert).slice(0, 130),
      alias,
      description: `${alert.detail}\n${alert.dashboardUrl}`.slice(0, 15_000),
      source: 'Cronbeam',
      entity: alert.jobName.slice(0, 512),
      priority: alert.event === 'test' ? 'P5' : 'P2',
      tags: ['cronbeam', subject],
      details: { event: alert.event, ...(alert.jobId ? { [`${subject}_id`]: alert.jobId } : {}) },
    }),
  };
}

/** A Teams message carrying one Adaptive Card: what both Teams' incoming webhooks and its Workflows webhooks accept. */
function teamsMessage(alert: AlertEvent): Record<string, unknown> {
  return {
    type: 'message',
    attachments: [
      {
        contentType: 'application/vnd.microsoft.card.adaptive',
        contentUrl: null,
        content: {
          $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
          type: 'AdaptiveCard',
          version: '1.4',
          body: [
            { type: 'TextBlock', text: headline(alert), weight: 'Bolder', size: 'Medium', wrap: true },
            { type: 'TextBlock', text: alert.detail, wrap: true },
          ],
          actions: [{ type: 'Action.OpenUrl', title: 'Open Cronbeam', url: alert.dashboardUrl }],
        },
      },
    ],
  };
}

/** The zero time Alertmanager sends as endsAt of an alert still firing. */
const ALERTMANAGER_NO_END = '0001-01-01T00:00:00Z';

/** Alertmanager's webhook payload (version 4) with one alert: firing on failure, resolved on recovery. */
function alertmanagerPayload(alert: AlertEvent): Record<string, unknown> {
  const resolved = alert.event === 'recovered';
  const status = resolved ? 'resolved' : 'firing';
  const labels: Record<string, string> = {
    alertname: alert.source === 'monitor' ? 'CronbeamMonitorDown' : alert.event === 'test' ? 'CronbeamTest' : alert.event.startsWith('certificate_') ? 'CronbeamCertificateExpiry' : 'CronbeamJobFailing',
    severity: alert.event === 'test' ? 'info' : 'critical',
    [alert.source === 'monitor' ? 'monitor' : 'job']: alert.jobName,
    ...(alert.jobId ? { [alert.source === 'monitor' ? 'monitor_id' : 'job_id']: alert.jobId } : {}),
  };
  const annotations = { summary: headline(alert), description: alert.detail };
  const startsAt = (alert.episodeStartedAt ?? alert.at).toISOString();
  const groupLabels = { alertname: labels.alertname! };
  return {
    version: '4',
    groupKey: `{}:{alertname="${labels.alertname}", ${subjectKey(alert).replace(':', '_id="')}"}`,
    truncatedAlerts: 0,
    status,
    receiver: 'cronbeam',
    groupLabels,
    commonLabels: labels,
    commonAnnotations: annotations,
    externalURL: alert.dashboardUrl,
    alerts: [
      {
        status,
        labels,
        annotations,
        startsAt,
        endsAt: resolved ? alert.at.toISOString() : ALERTMANAGER_NO_END,
        generatorURL: alert.dashboardUrl,
        fingerprint: createHash('sha256').update(episodeKey(alert)).digest('hex').slice(0, 16),
      },
    ],
  };
}

/** A webhook's body: the whole event. */
function webhookEvent(alert: AlertEvent): Record<string, unknown> {
  return {
    event: alert.event,
    job: alert.jobId && alert.source !== 'monitor' ? { job_id: alert.jobId, name: alert.jobName, url: alert.jobUrl } : null,
    ...(alert.source === 'monitor' ? { monitor: { monitor_id: alert.jobId, name: alert.jobName, ping_url: alert.jobUrl } } : {}),
    detail: alert.detail,
    at: alert.at.toISOString(),
    dashboard_url: alert.dashboardUrl,
  };
}

/**
 * The signature header of a webhook delivery: the timestamp and an
 * HMAC-SHA256 of "<timestamp>.<body>", so a receiver can check both that the
 * body came from us and that it is not an old one replayed.
 */
export function signatureHeader(secret: string, body: string, at: Date): Record<string, string> {
  return signaturesHeader([secret], body, at);
}

/**
 * The same header signed with several secrets, one v1 each (a run callback
 * while the job's rotated secret overlaps); none: no header.
 */
export function signaturesHeader(secrets: string[], body: string, at: Date): Record<string, string> {
  if (secrets.length === 0) return {};
  const timestamp = Math.floor(at.getTime() / 1000);
  const macs = secrets.map((secret) => `v1=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`);
  return { [WEBHOOK_SIGNATURE_HEADER]: `t=${timestamp},${macs.join(',')}` };
}
