import type { JobLogEntry, RunOutcome } from '../../shared/src/jobs/job-types';
import { newRunEvents, type JobWatchState } from '../../integrations/n8n-node/nodes/shared/run-events';

/** Log entries newest first, as the API answers them. */
const logs = (...runs: Array<[string, RunOutcome]>): JobLogEntry[] =>
  runs.map(([run_id, status], i) => ({
    run_id,
    status,
    executed_at: status === 'skipped' || status === 'missed' ? null : new Date(Date.UTC(2026, 0, 1, 0, 60 - i)).toISOString(),
    scheduled_for: new Date(Date.UTC(2026, 0, 1, 0, 60 - i)).toISOString(),
    attempt: 1,
    trigger: 'schedule',
    response_code: status === 'success' ? 200 : status === 'failed' ? 500 : null,
    duration_ms: 5,
    error_message: null,
    response_body: null,
    possible_duplicate: false,
    alert_note: null,
  }));

const events = (previous: JobWatchState | undefined, window: JobLogEntry[], wanted = ['failed', 'recovered'] as const) =>
  newRunEvents(previous, window, wanted);

describe('trigger run events', () => {
  it('records the first look without firing', () => {
    expect(events(undefined, logs(['b', 'failed'], ['a', 'failed']))).toEqual({ matches: [], next: { seen: ['b', 'a'], lastOutcome: 'failed' } });
  });

  it('fires a run that appears below runs already seen (it finished after a later run)', () => {
    const previous: JobWatchState = { seen: ['c', 'a'], lastOutcome: 'success' };
    const { matches } = events(previous, logs(['c', 'success'], ['b', 'failed'], ['a', 'success']));
    expect(matches.map((m) => [m.event, m.entry.run_id])).toEqual([['failed', 'b']]);
  });

  it('lets skipped and missed runs neither fire nor break a failure streak', () => {
    const previous: JobWatchState = { seen: ['a'], lastOutcome: 'failed' };
    const { matches, next } = events(previous, logs(['d', 'success'], ['c', 'missed'], ['b', 'skipped'], ['a', 'failed']));
    expect(matches.map((m) => [m.event, m.entry.run_id])).toEqual([['recovered', 'd']]);
    expect(next.lastOutcome).toBe('success');
  });

  it('uses the remembered outcome when the run before a new one has left the window', () => {
    const { matches } = events({ seen: ['old'], lastOutcome: 'failed' }, logs(['new', 'success']));
    expect(matches.map((m) => m.event)).toEqual(['recovered']);
    const plain = newRunEvents({ seen: ['old'], lastOutcome: 'failed' }, logs(['new', 'success']), ['succeeded']);
    expect(plain.matches.map((m) => m.event)).toEqual(['succeeded']);
  });
});
