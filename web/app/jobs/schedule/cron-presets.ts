/** The schedule picker's presets: common cron shapes by name, every 15 minutes first (the default). */
export const CRON_PRESETS = [
  { id: 'every-5-minutes', label: 'Every 5 minutes', cron: '*/5 * * * *' },
  { id: 'every-15-minutes', label: 'Every 15 minutes', cron: '*/15 * * * *' },
  { id: 'every-30-minutes', label: 'Every 30 minutes', cron: '*/30 * * * *' },
  { id: 'hourly', label: 'Every hour', cron: '0 * * * *' },
  { id: 'daily', label: 'Every day at midnight', cron: '0 0 * * *' },
  { id: 'weekly', label: 'Every Sunday at midnight', cron: '0 0 * * 0' },
  { id: 'monthly', label: 'On the 1st of every month at midnight', cron: '0 0 1 * *' },
] as const;

export type CronPreset = (typeof CRON_PRESETS)[number];

/** The preset an expression is (whitespace aside), if any. */
export function presetFor(expression: string): CronPreset | null {
  const normalized = expression.trim().split(/\s+/).join(' ');
  return CRON_PRESETS.find((preset) => preset.cron === normalized) ?? null;
}
