import type { FeedState } from '../events/event-feed';
import type { BoardJob, BoardOutcome } from '../jobs/job-board';
import type { WatchedMonitor } from '../monitors/monitor-watch';
import type { SessionState } from '../session/session';

/** One icon per state; electron-builder ships them under build/icons/tray/. */
export type TrayIcon = 'ok' | 'failing' | 'offline' | 'signed-out';

export type TrayAction =
  | { kind: 'open-logs'; jobId: string }
  | { kind: 'run-now'; jobId: string }
  | { kind: 'pause'; jobId: string }
  | { kind: 'open-dashboard' }
  | { kind: 'open-monitors' }
  | { kind: 'sign-in' }
  | { kind: 'settings' }
  | { kind: 'toggle-start-at-login' }
  | { kind: 'sign-out' }
  | { kind: 'quit' };

export type TrayMenuItem =
  | { type: 'separator' }
  | { type: 'item'; label: string; enabled: boolean; action?: TrayAction }
  | { type: 'checkbox'; label: string; checked: boolean; action: TrayAction }
  | { type: 'submenu'; label: string; items: TrayMenuItem[] };

export interface TrayInput {
  session: SessionState;
  feed: FeedState;
  failing: BoardJob[];
  /** Heartbeat monitors that are down; none: the menu has no monitors section. */
  down: WatchedMonitor[];
  latest: BoardOutcome[];
  startAtLogin: boolean;
}

export interface TrayView {
  icon: TrayIcon;
  tooltip: string;
  menu: TrayMenuItem[];
}

const separator: TrayMenuItem = { type: 'separator' };

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function outcomeLabel(o: BoardOutcome): string {
  const time = o.executedAt.slice(11, 16);
  return `${o.status === 'success' ? '✓' : '✗'} ${o.jobName} — ${o.status} at ${time} UTC`;
}

/** The tray's icon, tooltip and menu for a state: pure, so every state is tested without Electron. */
export function trayView(input: TrayInput): TrayView {
  const tail: TrayMenuItem[] = [
    { type: 'item', label: 'Settings…', enabled: true, action: { kind: 'settings' } },
    { type: 'checkbox', label: 'Start at login', checked: input.startAtLogin, action: { kind: 'toggle-start-at-login' } },
  ];
  if (input.session === 'signed-out') {
    return {
      icon: 'signed-out',
      tooltip: 'Cronbeam — signed out',
      menu: [
        { type: 'item', label: 'Sign in…', enabled: true, action: { kind: 'sign-in' } },
        separator,
        ...tail,
        separator,
        { type: 'item', label: 'Quit Cronbeam', enabled: true, action: { kind: 'quit' } },
      ],
    };
  }

  const offline = input.feed === 'offline';
  const problems = [
    ...(input.failing.length > 0 ? [`${plural(input.failing.length, 'job')} failing`] : []),
    ...(input.down.length > 0 ? [`${plural(input.down.length, 'monitor')} down`] : []),
  ];
  const icon: TrayIcon = offline ? 'offline' : problems.length > 0 ? 'failing' : 'ok';
  const status = offline ? 'offline — cannot reach the server' : problems.length > 0 ? problems.join(', ') : 'all jobs OK';

  const failingItems: TrayMenuItem[] =
    input.failing.length === 0
      ? [{ type: 'item', label: 'No failing jobs', enabled: false }]
      : input.failing.map((job) => ({
          type: 'submenu',
          label: `✗ ${job.name}`,
          items: [
            { type: 'item', label: 'Open logs', enabled: true, action: { kind: 'open-logs', jobId: job.id } },
            { type: 'item', label: 'Run now', enabled: !offline, action: { kind: 'run-now', jobId: job.id } },
            { type: 'item', label: 'Pause', enabled: !offline, action: { kind: 'pause', jobId: job.id } },
          ],
        }));
  const downItems: TrayMenuItem[] =
    input.down.length === 0
      ? []
      : [
          { type: 'item', label: 'Monitors down', enabled: false },
          ...input.down.map((m): TrayMenuItem => ({ type: 'item', label: `✗ ${m.name}`, enabled: true, action: { kind: 'open-monitors' } })),
          separator,
        ];
  const latestItems: TrayMenuItem[] =
    input.latest.length === 0
      ? [{ type: 'item', label: 'No runs yet', enabled: false }]
      : input.latest.map((o) => ({ type: 'item', label: outcomeLabel(o), enabled: true, action: { kind: 'open-logs', jobId: o.jobId } }));

  return {
    icon,
    tooltip: `Cronbeam — ${status}`,
    menu: [
      { type: 'item', label: status.charAt(0).toUpperCase() + status.slice(1), enabled: false },
      separator,
      { type: 'item', label: 'Failing jobs', enabled: false },
      ...failingItems,
      separator,
      ...downItems,
      { type: 'item', label: 'Latest runs', enabled: false },
      ...latestItems,
      separator,
      { type: 'item', label: 'Open Dashboard', enabled: true, action: { kind: 'open-dashboard' } },
      ...tail,
      { type: 'item', label: 'Sign out', enabled: true, action: { kind: 'sign-out' } },
      separator,
      { type: 'item', label: 'Quit Cronbeam', enabled: true, action: { kind: 'quit' } },
    ],
  };
}
