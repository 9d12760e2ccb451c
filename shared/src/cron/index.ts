export { CRON_FIELDS, MONTH_NAMES, WEEKDAY_NAMES, type CronFieldSpec } from './cron-fields';
export { CRON_MESSAGES } from './cron-messages';
export { cronError, parseCron, type CronField, type CronItem, type CronParseResult, type ParsedCron } from './cron-parse';
export { nextRun, nextRuns } from './cron-schedule';
export { describeCron } from './cron-describe';
export { DEFAULT_TIME_ZONE, TIME_ZONE_MESSAGE, formatInZone, isTimeZone, timeZoneNames } from './time-zone';
