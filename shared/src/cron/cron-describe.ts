import type { CronField, CronItem, ParsedCron } from './cron-parse';
import { parseCron } from './cron-parse';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

const pad = (n: number) => String(n).padStart(2, '0');
const isEvery = (field: CronField) => field.items.length === 1 && field.items[0].wildcard && field.items[0].step === 1;
const isSingles = (field: CronField) => field.items.every((item) => !item.wildcard && item.start === item.end);

/** "a", "a and b", "a, b and c". */
function joinList(parts: string[]): string {
  return parts.length <= 1 ? parts.join('') : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** One field's items in words: "every 15 minutes", "Monday through Friday", "9 and 17". */
function describeItems(field: CronField, plural: string, name: (v: number) => string): string {
  return joinList(
    field.items.map((item: CronItem) => {
      if (item.wildcard) return item.step === 1 ? `every ${plural.replace(/s$/, '')}` : `every ${item.step} ${plural}`;
      if (item.start === item.end) return name(item.start);
      const range = `${name(item.start)} through ${name(item.end)}`;
      return item.step === 1 ? range : `every ${item.step} ${plural} from ${range}`;
    }),
  );
}

function describeTime(cron: ParsedCron): string {
  const { minute, hour } = cron;
  if (isSingles(minute) && isSingles(hour) && minute.values.length * hour.values.length <= 6) {
    return `At ${joinList(hour.values.flatMap((h) => minute.values.map((m) => `${pad(h)}:${pad(m)}`)))}`;
  }
  const only = minute.items.length === 1 ? minute.items[0] : undefined;
  let minutes: string;
  if (isEvery(minute)) minutes = 'Every minute';
  else if (only && only.step > 1) {
    minutes = only.wildcard ? `Every ${only.step} minutes` : `Every ${only.step} minutes from minute ${only.start} through ${only.end}`;
  } else minutes = `At minute${minute.values.length > 1 ? 's' : ''} ${describeItems(minute, 'minutes', String)}`;
  if (isEvery(hour)) return minute.starred ? minutes : `${minutes} of every hour`;
  const hourRange = hour.items.length === 1 && hour.items[0].step === 1 && !hour.items[0].wildcard ? hour.items[0] : undefined;
  if (hourRange) return `${minutes}, between ${pad(hourRange.start)}:00 and ${pad(hourRange.end)}:59`;
  const hours = describeItems(hour, 'hours', (h) => `${pad(h)}:00`);
  return hour.items.every((item) => item.wildcard) ? `${minutes}, ${hours}` : `${minutes}, in the hours starting ${hours}`;
}

function describeDays(cron: ParsedCron, specificTime: boolean): string {
  const { dayOfMonth, dayOfWeek } = cron;
  const dayList = describeItems(dayOfMonth, 'days', String);
  const dayWord = dayList.startsWith('every') ? '' : dayOfMonth.values.length > 1 ? 'on days ' : 'on day ';
  const monthDays = isEvery(dayOfMonth) ? '' : `${dayWord}${dayList} of the month`;
  const weekDays = isEvery(dayOfWeek) ? '' : describeItems(dayOfWeek, 'days of the week', (d) => WEEKDAYS[d]);
  const onWeekDays = weekDays && (isSingles(dayOfWeek) ? `only on ${weekDays}` : weekDays);
  if (monthDays && onWeekDays) {
    // Standard cron: both restricted → either matches; one starred → both must match.
    return dayOfMonth.starred || dayOfWeek.starred ? `${monthDays}, and only on ${weekDays}` : `${monthDays} or on ${weekDays}`;
  }
  return monthDays || onWeekDays || (specificTime ? 'every day' : '');
}

/** The seconds of a six-field expression in words ("Every 5 seconds", "At seconds 0 and 30"); empty for second 0 alone. */
function describeSeconds(second: CronField | null): string {
  if (!second || (isSingles(second) && second.values.length === 1 && second.values[0] === 0)) return '';
  const only = second.items.length === 1 ? second.items[0] : undefined;
  if (isEvery(second)) return 'Every second';
  if (only?.wildcard) return `Every ${only.step} seconds`;
  return `At second${second.values.length > 1 ? 's' : ''} ${describeItems(second, 'seconds', String)}`;
}

/** A plain-English reading of a valid expression, e.g. "At 09:00, Monday through Friday" (times are UTC). */
export function describeCron(expression: string): string {
  const result = parseCron(expression, { seconds: true });
  if (!result.ok) return result.error;
  const cron = result.cron;
  const seconds = describeSeconds(cron.second);
  let time = describeTime(cron);
  // "Every 5 seconds" needs no "every minute"; with restricted minutes or hours, the seconds come first.
  if (seconds) time = isEvery(cron.minute) && isEvery(cron.hour) ? seconds : `${seconds}, ${time.charAt(0).toLowerCase()}${time.slice(1)}`;
  const parts = [time, describeDays(cron, time.startsWith('At ') && !time.startsWith('At minute') && !seconds)];
  if (!isEvery(cron.month)) parts.push(`in ${describeItems(cron.month, 'months', (m) => MONTHS[m - 1])}`);
  return parts.filter(Boolean).join(', ');
}
