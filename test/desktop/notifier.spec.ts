import type { ExecutionEvent } from '@cronbeam/shared/notifications/execution-event';
import { Notifier } from '../../desktop/main/notify/notifier';
import { RecordingNotifications } from './support/fake-electron';

let runs = 0;
function outcome(jobId: string, status: 'success' | 'failed', extra: Partial<ExecutionEvent> = {}): ExecutionEvent {
  runs += 1;
  return {
    run_id: `00000000-0000-4000-8000-${String(runs).padStart(12, '0')}`,
    job_id: jobId,
    trigger: 'schedule',
    attempt: 1,
    status,
    response_code: status === 'success' ? 200 : 503,
    duration_ms: 12,
    error_message: null,
    scheduled_for: '2026-11-23T10:00:00.000Z',
    executed_at: '2026-11-23T10:00:00.100Z',
    will_retry: false,
    ...extra,
  };
}

function setup(muted: string[] = []) {
  const notifications = new RecordingNotifications();
  const opened: string[] = [];
  let dnd = false;
  const notifier = new Notifier({
    notifications,
    jobName: (id) => `name of ${id}`,
    isMuted: (id) => muted.includes(id),
    isDoNotDisturb: () => dnd,
    openJobLogs: (id) => opened.push(id),
    openMonitors: () => opened.push('monitors'),
  });
  return { notifier, notifications, opened, setDnd: (on: boolean) => (dnd = on) };
}

describe('Notifier', () => {
  it('one notification per failure episode: none for retries, none for repeated failures, one on recovery', () => {
    const { notifier, notifications } = setup();
    notifier.handle(outcome('a', 'failed', { will_retry: true }));
    notifier.handle(outcome('a', 'failed', { trigger: 'retry', attempt: 2, will_retry: true }));
    expect(notifications.shown).toHaveLength(0);
    notifier.handle(outcome('a', 'failed', { trigger: 'retry', attempt: 4, error_message: 'Connection refused' }));
    notifier.handle(outcome('a', 'failed'));
    notifier.handle(outcome('a', 'failed'));
    expect(notifications.shown.map((n) => [n.title, n.body])).toEqual([['Job failed: name of a', 'Failed after 4 attempts: Connection refused']]);
    notifier.handle(outcome('a', 'success'));
    notifier.handle(outcome('a', 'success'));
    expect(notifications.shown.map((n) => n.title)).toEqual(['Job failed: name of a', 'Job recovered: name of a']);
    expect(notifications.shown[1].body).toBe('Succeeded again (HTTP 200)');
  });

  it('a success with no episode open says nothing; episodes are per job', () => {
    const { notifier, notifications } = setup();
    notifier.handle(outcome('a', 'success'));
    notifier.handle(outcome('a', 'failed'));
    notifier.handle(outcome('b', 'failed'));
    expect(notifications.shown.map((n) => n.title)).toEqual(['Job failed: name of a', 'Job failed: name of b']);
  });

  it('muted jobs never notify, but their episode is still tracked', () => {
    const { notifier, notifications } = setup(['m']);
    notifier.handle(outcome('m', 'failed'));
    expect(notifications.shown).toHaveLength(0);
    expect(notifier.isFailing('m')).toBe(true);
    notifier.handle(outcome('m', 'success'));
    expect(notifications.shown).toHaveLength(0);
    expect(notifier.isFailing('m')).toBe(false);
  });

  it('do-not-disturb holds notifications back without replaying them later', () => {
    const { notifier, notifications, setDnd } = setup();
    setDnd(true);
    notifier.handle(outcome('a', 'failed'));
    setDnd(false);
    notifier.handle(outcome('a', 'failed'));
    expect(notifications.shown).toHaveLength(0);
  });

  it('jobs already failing at start open no new episode; clicking opens that job’s logs', () => {
    const { notifier, notifications, opened } = setup();
    notifier.seedFailing(['a']);
    notifier.handle(outcome('a', 'failed'));
    expect(notifications.shown).toHaveLength(0);
    notifier.handle(outcome('a', 'success'));
    notifications.shown[0].onClick();
    expect(opened).toEqual(['a']);
  });

  it('a monitor going down and coming back: one notification each, opening the monitors page; none during do-not-disturb', () => {
    const { notifier, notifications, opened, setDnd } = setup();
    const monitor = { id: 'm1', name: 'nightly backup', status: 'down' as const, lastPingAt: '2026-11-23T03:00:12.000Z' };
    notifier.handleMonitor({ kind: 'down', monitor });
    notifier.handleMonitor({ kind: 'recovered', monitor: { ...monitor, status: 'up', lastPingAt: '2026-11-23T04:01:00.000Z' } });
    expect(notifications.shown.map((n) => [n.title, n.body])).toEqual([
      ['Monitor down: nightly backup', 'A ping is overdue or a failure was reported. Last ping at 03:00 UTC.'],
      ['Monitor recovered: nightly backup', 'Last ping at 04:01 UTC.'],
    ]);
    notifications.shown[0].onClick();
    expect(opened).toEqual(['monitors']);
    setDnd(true);
    notifier.handleMonitor({ kind: 'down', monitor: { ...monitor, lastPingAt: null } });
    expect(notifications.shown).toHaveLength(2);
  });
});
