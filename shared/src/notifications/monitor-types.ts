/**
 * Limits, statuses and answer shapes of heartbeat monitors. Kept free of
 * imports so that packages without the validation library (the n8n node,
 * which ships without runtime dependencies) can quote the same rules.
 */

/** Limits of heartbeat monitors: the expected period and the grace time after it, in seconds. */
export const MONITOR_LIMITS = { minPeriodSeconds: 1, maxPeriodSeconds: 31 * 86_400, maxGraceSeconds: 7 * 86_400, nameMaxLength: 50, recentEvents: 50 } as const;

export const MONITOR_STATUSES = ['new', 'up', 'down', 'paused'] as const;
export type MonitorStatus = (typeof MONITOR_STATUSES)[number];

/** What happened to a monitor: a ping of one of the three kinds, or the sweep finding its ping overdue. */
export type MonitorEventKind = 'success' | 'fail' | 'start' | 'missed';

export interface MonitorEvent {
  kind: MonitorEventKind;
  at: string;
  /** A success ping after a start ping: the run time. */
  duration_ms: number | null;
}

/** A heartbeat monitor as the API answers it. Its schedule is a period or a cron expression (read in time_zone). */
export interface Monitor {
  monitor_id: string;
  name: string;
  ping_url: string;
  period_seconds: number | null;
  cron_expression: string | null;
  time_zone: string;
  grace_seconds: number;
  /** Missed deadlines in a row that take the monitor down (and alert); 1: the first. A failure ping takes it down at once. */
  alert_after_misses: number;
  /** Alert channels besides the account email; null: every channel that takes all alerts. */
  channel_ids: string[] | null;
  /** Lower-case labels for filtering, bulk actions, maintenance windows and status pages; [] when none. */
  tags: string[];
  status: MonitorStatus;
  last_ping_at: string | null;
  last_duration_ms: number | null;
  /** When the monitor goes down if no ping comes; null before the first ping, while down and while paused. */
  due_at: string | null;
  created_at: string;
}
