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

/** Engines of recently used expressions: the scheduler asks about the same few thousand again and again. */
const ENGINE_CACHE_SIZE = 5_000;
const engines = new Map<string, Cron>();

function engineFor(expression: string): Cron {
  let cached = engines.get(expression);
  if (cached) {
    // Re-insert so the least recently used entry is the first one evicted.
    engines.delete(expression);
  } else {
    cached = engine(parsedOrThrow(expression));
    if (engines.size >= ENGINE_CACHE_SIZE) engines.delete(engines.keys().next().value!);
  }
  engines.set(expression, cached);
  return cached;
}

/** The next `count` instants strictly after `from`, in UTC. Throws on an invalid expression. */
export function nextRuns(expression: string, count: number, from: Date = new Date()): Date[] {
  return engineFor(expression).nextRuns(count, from);
}

/** The first instant strictly after `from`, or null if the schedule never fires again (e.g. 30 February). */
export function nextRun(expression: string, from: Date = new Date()): Date | null {
  return engineFor(expression).nextRun(from) ?? null;
}
