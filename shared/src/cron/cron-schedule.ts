import { Cron } from 'croner';
import { parseCron, type ParsedCron } from './cron-parse';

/**
 * The engine for a parsed expression, in UTC. Standard (Vixie) cron rule: when
 * both day fields are restricted a day matches either of them (OR); when
 * either begins with `*` both must match (AND), which for a plain `*` is the
 * same as ignoring it and for `*\/2` keeps its meaning.
 */
function engine(cron: ParsedCron): Cron {
  const domAndDow = cron.dayOfMonth.starred || cron.dayOfWeek.starred;
  return new Cron(cron.normalized, { timezone: 'UTC', mode: '5-part', domAndDow });
}

function parsedOrThrow(expression: string): ParsedCron {
  const result = parseCron(expression);
  if (!result.ok) throw new Error(`Invalid cron expression '${expression}': ${result.error}`);
  return result.cron;
}

/** The next `count` instants strictly after `from`, in UTC. Throws on an invalid expression. */
export function nextRuns(expression: string, count: number, from: Date = new Date()): Date[] {
  return engine(parsedOrThrow(expression)).nextRuns(count, from);
}

/** The first instant strictly after `from`, or null if the schedule never fires again (e.g. 30 February). */
export function nextRun(expression: string, from: Date = new Date()): Date | null {
  return engine(parsedOrThrow(expression)).nextRun(from) ?? null;
}
