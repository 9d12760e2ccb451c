import { z } from 'zod';

/** Limits of heartbeat monitors: the expected period and the grace time after it, in seconds. */
export const MONITOR_LIMITS = { minPeriodSeconds: 1, maxPeriodSeconds: 31 * 86_400, maxGraceSeconds: 7 * 86_400, nameMaxLength: 50 } as const;

export const MONITOR_MESSAGES = {
  name: `Name must be 1 to ${MONITOR_LIMITS.nameMaxLength} characters`,
  period: `period_seconds must be a whole number from ${MONITOR_LIMITS.minPeriodSeconds} to ${MONITOR_LIMITS.maxPeriodSeconds}`,
  grace: `grace_seconds must be a whole number from 0 to ${MONITOR_LIMITS.maxGraceSeconds}`,
  notFound: 'Monitor not found',
  unknownPing: 'Unknown ping URL',
} as const;

export type MonitorStatus = 'new' | 'up' | 'down';

/** A heartbeat monitor as the API answers it. */
export interface Monitor {
  monitor_id: string;
  name: string;
  ping_url: string;
  period_seconds: number;
  grace_seconds: number;
  status: MonitorStatus;
  last_ping_at: string | null;
  last_duration_ms: number | null;
  /** When the monitor goes down if no ping comes; null before the first ping. */
  due_at: string | null;
  created_at: string;
}

const whole = (message: string, min: number, max: number) => z.number({ error: message }).int(message).min(min, message).max(max, message);

export const monitorSchema = z.strictObject(
  {
    name: z.string({ error: MONITOR_MESSAGES.name }).trim().min(1, MONITOR_MESSAGES.name).max(MONITOR_LIMITS.nameMaxLength, MONITOR_MESSAGES.name),
    period_seconds: whole(MONITOR_MESSAGES.period, MONITOR_LIMITS.minPeriodSeconds, MONITOR_LIMITS.maxPeriodSeconds),
    grace_seconds: whole(MONITOR_MESSAGES.grace, 0, MONITOR_LIMITS.maxGraceSeconds).default(60),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
);
export type MonitorDefinition = z.infer<typeof monitorSchema>;
