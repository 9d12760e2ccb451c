import type { BoardJob, BoardOutcome } from '../../desktop/main/jobs/job-board';
import type { WatchedMonitor } from '../../desktop/main/monitors/monitor-watch';
import { type TrayInput, type TrayMenuItem, trayView } from '../../desktop/main/tray/tray-model';

const base: TrayInput = { session: 'signed-in', feed: 'live', failing: [], down: [], latest: [], startAtLogin: false };
const job = (id: string, name: string): BoardJob => ({ id, name, status: 'failed' });
const down = (id: string, name: string): WatchedMonitor => ({ id, name, status: 'down', lastPingAt: null });
const outcome = (n: number, status: 'success' | 'failed'): BoardOutcome => ({
  runId: `r${n}`,
  jobId: `j${n}`,
  jobName: `job ${n}`,
  status,
  executedAt: `2026-11-23T10:0${n}:00.000Z`,
});

function labels(items: TrayMenuItem[]): string[] {
  return items.map((i) => (i.type === 'separator' ? '---' : i.label));
}

describe('tray model', () => {
  it('all good: the OK icon, a tooltip saying so, and the fixed entries', () => {
    const view = trayView(base);
    expect(view.icon).toBe('ok');
    expect(view.tooltip).toBe('Cronbeam — all jobs OK');
    expect(labels(view.menu)).toEqual([
      'All jobs OK',
      '---',
      'Failing jobs',
      'No failing jobs',
      '---',
      'Latest runs',
      'No runs yet',
      '---',
      'Open Dashboard',
      'Settings…',
      'Start at login',
      'Sign out',
      '---',
      'Quit Cronbeam',
    ]);
  });

  it('N failing: the failing icon, the count, and per job open logs / run now / pause', () => {
    const view = trayView({ ...base, failing: [job('a', 'Backup'), job('b', 'Billing sync')] });
    expect(view.icon).toBe('failing');
    expect(view.tooltip).toBe('Cronbeam — 2 jobs failing');
    const backup = view.menu.find((i) => i.type === 'submenu' && i.label === '✗ Backup');
    expect(backup).toEqual({
      type: 'submenu',
      label: '✗ Backup',
      items: [
        { type: 'item', label: 'Open logs', enabled: true, action: { kind: 'open-logs', jobId: 'a' } },
        { type: 'item', label: 'Run now', enabled: true, action: { kind: 'run-now', jobId: 'a' } },
        { type: 'item', label: 'Pause', enabled: true, action: { kind: 'pause', jobId: 'a' } },
      ],
    });
    expect(trayView({ ...base, failing: [job('a', 'Backup')] }).tooltip).toBe('Cronbeam — 1 job failing');
  });

  it('monitors down: the failing icon, counted beside failing jobs, each opening the monitors page', () => {
    const onlyMonitors = trayView({ ...base, down: [down('m1', 'nightly backup')] });
    expect(onlyMonitors.icon).toBe('failing');
    expect(onlyMonitors.tooltip).toBe('Cronbeam — 1 monitor down');
    expect(labels(onlyMonitors.menu).slice(0, 8)).toEqual(['1 monitor down', '---', 'Failing jobs', 'No failing jobs', '---', 'Monitors down', '✗ nightly backup', '---']);
    expect(onlyMonitors.menu[6]).toEqual({ type: 'item', label: '✗ nightly backup', enabled: true, action: { kind: 'open-monitors' } });

    const both = trayView({ ...base, failing: [job('a', 'Backup')], down: [down('m1', 'a'), down('m2', 'b')] });
    expect(both.tooltip).toBe('Cronbeam — 1 job failing, 2 monitors down');
    expect(trayView({ ...base, feed: 'offline', down: [down('m1', 'a')] }).icon).toBe('offline');
  });

  it('offline: the offline icon wins over failing jobs, and server actions are disabled', () => {
    const view = trayView({ ...base, feed: 'offline', failing: [job('a', 'Backup')] });
    expect(view.icon).toBe('offline');
    expect(view.tooltip).toBe('Cronbeam — offline — cannot reach the server');
    const submenu = view.menu.find((i) => i.type === 'submenu');
    expect(submenu?.type === 'submenu' && submenu.items.map((i) => i.type === 'item' && i.enabled)).toEqual([true, false, false]);
  });

  it('signed out: the signed-out icon and only Sign in, Settings, Start at login, Quit', () => {
    const view = trayView({ ...base, session: 'signed-out', startAtLogin: true });
    expect(view.icon).toBe('signed-out');
    expect(view.tooltip).toBe('Cronbeam — signed out');
    expect(labels(view.menu)).toEqual(['Sign in…', '---', 'Settings…', 'Start at login', '---', 'Quit Cronbeam']);
    expect(view.menu.find((i) => i.type === 'checkbox')).toMatchObject({ checked: true, action: { kind: 'toggle-start-at-login' } });
  });

  it('lists the latest outcomes (at most what the board keeps), each opening its job logs', () => {
    const latest = [outcome(5, 'failed'), outcome(4, 'success'), outcome(3, 'success'), outcome(2, 'success'), outcome(1, 'success')];
    const view = trayView({ ...base, latest });
    const start = labels(view.menu).indexOf('Latest runs') + 1;
    expect(view.menu.slice(start, start + 5)).toEqual(
      latest.map((o) => ({
        type: 'item',
        label: `${o.status === 'success' ? '✓' : '✗'} ${o.jobName} — ${o.status} at ${o.executedAt.slice(11, 16)} UTC`,
        enabled: true,
        action: { kind: 'open-logs', jobId: o.jobId },
      })),
    );
  });
});
