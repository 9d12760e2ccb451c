import { z } from 'zod';
import { cronError } from '../cron/cron-parse';
import { DEFAULT_TIME_ZONE, TIME_ZONE_MESSAGE, isTimeZone } from '../cron/time-zone';
import { ALERT_AFTER_MAX } from '../jobs/job-rules';
import { tagsSchema } from '../tags/tags';
import { MONITOR_LIMITS } from './monitor-types';

export { MONITOR_LIMITS, MONITOR_STATUSES, type Monitor, type MonitorEvent, type MonitorEventKind, type MonitorStatus } from './monitor-types';

export const MONITOR_MESSAGES = {
  name: `Name must be 1 to ${MONITOR_LIMITS.nameMaxLength} characters`,
  period: `period_seconds must be a whole number from ${MONITOR_LIMITS.minPeriodSeconds} to ${MONITOR_LIMITS.maxPeriodSeconds}`,
  grace: `grace_seconds must be a whole number from 0 to ${MONITOR_LIMITS.maxGraceSeconds}`,
  schedule: 'Give either period_seconds or cron_expression, not both',
  timeZone: TIME_ZONE_MESSAGE,
  timeZoneWithoutCron: 'time_zone applies to a cron_expression only',
  channelIds: 'channel_ids must be null (every channel that takes all alerts) or a list of your alert channel ids',
  unknownChannel: 'channel_ids names an alert channel that is not yours',
  alertAfterMisses: `alert_after_misses must be a whole number from 1 to ${ALERT_AFTER_MAX}`,
  notFound: 'Monitor not found',
  unknownPing: 'Unknown ping URL',
} as const;

const whole = (message: string, min: number, max: number) => z.number({ error: message }).int(message).min(min, message).max(max, message);

/** Whitespace collapsed to single spaces, as jobs store it. */
const cronSchema = z
  .unknown()
  .superRefine((value, ctx) => {
    const error = cronError(value);
    if (error) ctx.addIssue({ code: 'custom', message: error });
  })
  .transform((value) => (value as string).trim().split(/\s+/).join(' '));

/**
 * A monitor definition, for create and for update (PUT replaces it whole).
 * The expected schedule is either a period (a ping every N seconds) or a cron
 * expression in a time zone (a ping at each of its instants); either way a
 * ping later than the grace time after it is missed. The monitor goes down
 * (and alerts) at its alert_after_misses-th missed deadline in a row, or at
 * once on a failure ping.
 */
export const monitorSchema = z
  .strictObject(
    {
      name: z.string({ error: MONITOR_MESSAGES.name }).trim().min(1, MONITOR_MESSAGES.name).max(MONITOR_LIMITS.nameMaxLength, MONITOR_MESSAGES.name),
      period_seconds: whole(MONITOR_MESSAGES.period, MONITOR_LIMITS.minPeriodSeconds, MONITOR_LIMITS.maxPeriodSeconds).nullable().default(null),
      cron_expression: cronSchema.nullable().default(null),
      time_zone: z
        .unknown()
        .superRefine((value, ctx) => {
          if (!isTimeZone(value)) ctx.addIssue({ code: 'custom', message: MONITOR_MESSAGES.timeZone });
        })
        .transform((value) => value as string)
        .default(DEFAULT_TIME_ZONE),
      grace_seconds: whole(MONITOR_MESSAGES.grace, 0, MONITOR_LIMITS.maxGraceSeconds).default(60),
      alert_after_misses: whole(MONITOR_MESSAGES.alertAfterMisses, 1, ALERT_AFTER_MAX).default(1),
      channel_ids: z
        .array(z.string({ error: MONITOR_MESSAGES.channelIds }), { error: MONITOR_MESSAGES.channelIds })
        .max(100, MONITOR_MESSAGES.channelIds)
        .nullable()
        .default(null),
      tags: tagsSchema,
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
  )
  .superRefine((monitor, ctx) => {
    const hasPeriod = monitor.period_seconds !== null;
    const hasCron = monitor.cron_expression !== null;
    if (hasPeriod === hasCron) ctx.addIssue({ code: 'custom', message: MONITOR_MESSAGES.schedule, path: [hasPeriod ? 'cron_expression' : 'period_seconds'] });
    if (hasPeriod && monitor.time_zone !== DEFAULT_TIME_ZONE) ctx.addIssue({ code: 'custom', message: MONITOR_MESSAGES.timeZoneWithoutCron, path: ['time_zone'] });
  });
export type MonitorDefinition = z.infer<typeof monitorSchema>;
