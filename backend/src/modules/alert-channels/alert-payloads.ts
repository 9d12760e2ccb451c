import { createHmac } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER, type AlertChannelKind, type AlertDelivery } from '@shared/notifications/alert-channels';

/** What an alert is about, in the words every channel shows. */
export interface AlertEvent {
  event: AlertDelivery['event'];
  /** What the alert is about: one of the user's jobs (the default) or a heartbeat monitor (jobId then holds its id). */
  source?: 'job' | 'monitor';
  jobId: string | null;
  jobName: string;
  jobUrl: string;
  /** One line: why it failed, when it recovered, that it paused. */
  detail: string;
  at: Date;
  dashboardUrl: string;
}

const HEADLINES: Record<AlertDelivery['event'], (name: string) => string> = {
  failed: (name) => `Cronbeam: job "${name}" failed`,
  recovered: (name) => `Cronbeam: job "${name}" recovered`,
  auto_paused: (name) => `Cronbeam: job "${name}" was paused after repeated failures`,
  test: () => 'Cronbeam: test alert',
};

const MONITOR_HEADLINES: Partial<Record<AlertDelivery['event'], (name: string) => string>> = {
  failed: (name) => `Cronbeam: monitor "${name}" is down`,
  recovered: (name) => `Cronbeam: monitor "${name}" is up again`,
};

export function headline(alert: AlertEvent): string {
  const monitorHeadline = alert.source === 'monitor' ? MONITOR_HEADLINES[alert.event] : undefined;
  return (monitorHeadline ?? HEADLINES[alert.event])(alert.jobName);
}

/** The body a channel of this kind expects: Slack and Discord take their own message fields, a webhook the whole event. */
export function alertBody(kind: Exclude<AlertChannelKind, 'email'>, alert: AlertEvent): string {
  const text = `${headline(alert)}\n${alert.detail}\n${alert.dashboardUrl}`;
  if (kind === 'slack') return JSON.stringify({ text });
  if (kind === 'discord') return JSON.stringify({ content: text.slice(0, 2000) });
  return JSON.stringify({
    event: alert.event,
    job: alert.jobId && alert.source !== 'monitor' ? { job_id: alert.jobId, name: alert.jobName, url: alert.jobUrl } : null,
    ...(alert.source === 'monitor' ? { monitor: { monitor_id: alert.jobId, name: alert.jobName, ping_url: alert.jobUrl } } : {}),
    detail: alert.detail,
    at: alert.at.toISOString(),
    dashboard_url: alert.dashboardUrl,
  });
}

/**
 * The signature header of a webhook delivery: the timestamp and an
 * HMAC-SHA256 of "<timestamp>.<body>", so a receiver can check both that the
 * body came from us and that it is not an old one replayed.
 */
export function signatureHeader(secret: string, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const mac = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return { [WEBHOOK_SIGNATURE_HEADER]: `t=${timestamp},v1=${mac}` };
}
