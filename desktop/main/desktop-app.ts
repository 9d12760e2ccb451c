import type { DesktopSessionKey, DesktopSettings, IpcEvents, SessionSnapshot } from '@cronbeam/shared/desktop/ipc-contract';
import { EventFeed } from './events/event-feed';
import type { IpcHandlerGroup } from './ipc/ipc-registry';
import { JobBoard } from './jobs/job-board';
import { JobsClient } from './jobs/jobs-client';
import { MonitorWatch } from './monitors/monitor-watch';
import { callServer, type ServerAccess } from './api/server-call';
import { Notifier, type NotificationPort } from './notify/notifier';
import { Session } from './session/session';
import type { TokenVault } from './session/token-vault';
import type { SettingsStore } from './settings/settings-store';
import type { Timers } from './timers';
import { type TrayAction, type TrayView, trayView } from './tray/tray-model';
import { isAllowedExternalUrl } from './windows/window-security';
import { jobLogsRoute, MONITORS_ROUTE } from './deep-link';

/** Draws the tray (Electron's Tray and Menu in the app, a recorder in tests). */
export interface TrayPort {
  render(view: TrayView, onAction: (action: TrayAction) => void): void;
}

/** The app's windows. */
export interface WindowsPort {
  /** Shows (creating if needed) the window on an app route. */
  show(route: string): void;
  /** Sends an event to every open window. */
  broadcast<E extends keyof IpcEvents>(event: E, payload: IpcEvents[E]): void;
}

/** Operating-system services. */
export interface SystemPort {
  setStartAtLogin(enabled: boolean): void;
  openExternal(url: string): Promise<void>;
  isDoNotDisturb(): boolean;
  quit(): void;
}

export interface DesktopAppOptions {
  settings: SettingsStore;
  vault: TokenVault;
  tray: TrayPort;
  windows: WindowsPort;
  notifications: NotificationPort;
  system: SystemPort;
  timers?: Timers;
  fetch?: typeof fetch;
  /** Reports errors of background work (tray actions, job list loads). */
  onError?: (error: unknown) => void;
}

const TOKEN_KEYS: DesktopSessionKey[] = ['accessToken', 'idToken', 'refreshToken', 'tokenExpiry'];

/**
 * The tray app's behaviour, wired from its units with every Electron API
 * behind a port: the session decides what is shown, the event feed keeps
 * the job board and the notifier current, and the tray is redrawn on every
 * change. `index.ts` only supplies the Electron adapters.
 */
export class DesktopApp {
  readonly session: Session;
  readonly feed: EventFeed;
  readonly board = new JobBoard();
  readonly notifier: Notifier;
  readonly jobs: JobsClient;
  readonly monitors: MonitorWatch;
  /** Window-only session values (auth intent, the address a code went to): never persisted. */
  private readonly windowValues = new Map<DesktopSessionKey, string>();
  /** Token values the window is writing one by one after its own sign-in. */
  private readonly pendingTokens = new Map<DesktopSessionKey, string>();
  private readonly onError: (error: unknown) => void;

  constructor(private readonly options: DesktopAppOptions) {
    const serverUrl = () => process.env.CRONBEAM_SERVER_URL || options.settings.value.serverUrl;
    this.onError = options.onError ?? (() => undefined);
    this.session = new Session({ serverUrl, vault: options.vault, timers: options.timers, fetch: options.fetch });
    this.feed = new EventFeed({ serverUrl, credentials: this.session, timers: options.timers, fetch: options.fetch });
    const access: ServerAccess = { serverUrl, credentials: this.session, fetch: options.fetch ?? ((input, init) => fetch(input, init)) };
    this.jobs = new JobsClient(access);
    this.monitors = new MonitorWatch({
      list: () => callServer(access, 'GET', '/api/monitors'),
      timers: options.timers,
      onError: (error) => this.onError(error),
      // While the event feed cannot reach the server, neither can this; the feed going live again refreshes it.
      reachable: () => this.feed.state !== 'offline',
    });
    this.notifier = new Notifier({
      notifications: options.notifications,
      jobName: (id) => this.board.nameOf(id),
      isMuted: (id) => options.settings.isMuted(id),
      isDoNotDisturb: () => options.system.isDoNotDisturb(),
      openJobLogs: (id) => options.windows.show(jobLogsRoute(id)),
      openMonitors: () => options.windows.show(MONITORS_ROUTE),
    });

    this.feed.onOutcome((event) => {
      // The notifier decides on the episode before the board changes the job's status.
      this.notifier.handle(event);
      this.board.apply(event);
    });
    this.feed.onState((state) => {
      if (state === 'live') {
        this.reloadJobs();
        void this.monitors.refresh();
      }
      this.renderTray();
    });
    this.board.onChange(() => this.renderTray());
    this.monitors.onStatusChange((change) => this.notifier.handleMonitor(change));
    this.monitors.onChange(() => this.renderTray());
    this.session.onChange((state) => {
      this.options.windows.broadcast('session:changed', this.snapshot());
      if (state === 'signed-in') {
        this.feed.start();
        this.monitors.start();
      } else this.onSignedOut();
      this.renderTray();
    });
    options.settings.onChange(() => this.renderTray());
  }

  /** At launch: the stored session, if any, and the tray. */
  async start(): Promise<void> {
    this.renderTray();
    await this.session.restore();
    if (this.session.state === 'signed-out') this.options.windows.show('/login');
  }

  dispose(): void {
    this.feed.stop();
    this.monitors.stop();
    this.session.dispose();
  }

  /** The window's view of the session. */
  snapshot(): SessionSnapshot {
    const snapshot: SessionSnapshot = Object.fromEntries(this.windowValues);
    const tokens = this.session.current;
    if (tokens) {
      snapshot.accessToken = tokens.accessToken;
      snapshot.idToken = tokens.idToken;
      snapshot.refreshToken = tokens.refreshToken;
      snapshot.tokenExpiry = String(tokens.expiresAt);
    }
    return snapshot;
  }

  settingsView(): DesktopSettings {
    return { ...this.options.settings.value, tokenStore: this.options.vault.kind };
  }

  sessionHandlers(): IpcHandlerGroup<'session:load' | 'session:set' | 'session:remove'> {
    return {
      'session:load': () => this.snapshot(),
      'session:set': async ({ key, value }) => {
        if (!TOKEN_KEYS.includes(key)) {
          this.windowValues.set(key, value);
          return;
        }
        this.pendingTokens.set(key, value);
        await this.adoptWindowSignIn();
      },
      'session:remove': async ({ key }) => {
        if (!TOKEN_KEYS.includes(key)) {
          this.windowValues.delete(key);
          return;
        }
        this.pendingTokens.clear();
        // The window clears its tokens on logout or when the server answered 401: the session ends.
        if (this.session.state === 'signed-in') await this.session.signOut();
      },
    };
  }

  settingsHandlers(): IpcHandlerGroup<'settings:get' | 'settings:set-server-url' | 'settings:set-start-at-login' | 'settings:set-job-muted'> {
    const settings = this.options.settings;
    return {
      'settings:get': () => this.settingsView(),
      'settings:set-server-url': async ({ url }) => {
        if (url !== settings.value.serverUrl) {
          // Tokens of one server mean nothing to another.
          await this.session.signOut();
          await settings.update({ serverUrl: url });
        }
        return this.settingsView();
      },
      'settings:set-start-at-login': async ({ enabled }) => {
        this.options.system.setStartAtLogin(enabled);
        await settings.update({ startAtLogin: enabled });
        return this.settingsView();
      },
      'settings:set-job-muted': async ({ jobId, muted }) => {
        await settings.setMuted(jobId, muted);
        return this.settingsView();
      },
    };
  }

  appHandlers(): IpcHandlerGroup<'app:open-external'> {
    return {
      'app:open-external': async ({ url }) => {
        if (!isAllowedExternalUrl(url, this.options.settings.value.serverUrl)) return { opened: false };
        await this.options.system.openExternal(url);
        return { opened: true };
      },
    };
  }

  /** What a tray menu item does. */
  async perform(action: TrayAction): Promise<void> {
    switch (action.kind) {
      case 'open-logs':
        return this.options.windows.show(jobLogsRoute(action.jobId));
      case 'run-now':
        await this.jobs.runNow(action.jobId);
        return;
      case 'pause':
        this.board.setStatus(action.jobId, (await this.jobs.pause(action.jobId)).status);
        return;
      case 'open-dashboard':
        return this.options.windows.show('/dashboard');
      case 'open-monitors':
        return this.options.windows.show(MONITORS_ROUTE);
      case 'sign-in':
        return this.options.windows.show('/login');
      case 'settings':
        return this.options.windows.show('/desktop/settings');
      case 'toggle-start-at-login': {
        const enabled = !this.options.settings.value.startAtLogin;
        this.options.system.setStartAtLogin(enabled);
        await this.options.settings.update({ startAtLogin: enabled });
        return;
      }
      case 'sign-out':
        await this.session.signOut();
        this.options.windows.show('/login');
        return;
      case 'quit':
        return this.options.system.quit();
    }
  }

  private async adoptWindowSignIn(): Promise<void> {
    if (!TOKEN_KEYS.every((k) => this.pendingTokens.has(k))) return;
    const expiry = Number(this.pendingTokens.get('tokenExpiry'));
    const tokens = {
      access_token: this.pendingTokens.get('accessToken')!,
      id_token: this.pendingTokens.get('idToken')!,
      refresh_token: this.pendingTokens.get('refreshToken')!,
      expires_in: Math.max(0, Math.floor((expiry - Date.now()) / 1000)),
      token_type: 'Bearer' as const,
    };
    this.pendingTokens.clear();
    if (tokens.access_token === this.session.current?.accessToken) return;
    await this.session.adopt(tokens);
  }

  private onSignedOut(): void {
    this.feed.stop(true);
    this.monitors.stop();
    this.board.clear();
    this.notifier.forgetAll();
  }

  private reloadJobs(): void {
    this.jobs.list().then(
      (jobs) => {
        // Jobs already failing when the feed (re)connects started their episode earlier: no new notification.
        this.notifier.seedFailing(jobs.filter((j) => j.status === 'failed').map((j) => j.job_id));
        this.board.load(jobs);
      },
      (error: unknown) => this.onError(error),
    );
  }

  private renderTray(): void {
    const view = trayView({
      session: this.session.state,
      feed: this.feed.state,
      failing: this.board.failingJobs(),
      down: this.monitors.downMonitors(),
      latest: this.board.latestOutcomes(),
      startAtLogin: this.options.settings.value.startAtLogin,
    });
    this.options.tray.render(view, (action) => void this.perform(action).catch(this.onError));
  }
}
