import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ExecutionEvent } from '@cronbeam/shared/notifications/execution-event';
import { DesktopApp } from '../../desktop/main/desktop-app';
import { SafeStorageVault } from '../../desktop/main/session/token-vault';
import { SettingsStore } from '../../desktop/main/settings/settings-store';
import { FAST_SCHEDULER_ENV } from '../api/scheduler-fixtures';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { DroppingProxy } from './support/dropping-proxy';
import { FakeCipher, FakeSystem, RecordingNotifications, RecordingTray, RecordingWindows } from './support/fake-electron';
import { eventually } from './support/manual-timers';

jest.setTimeout(90_000);

/**
 * The tray app's units wired as in the app (DesktopApp), against the real
 * backend over a relay that can drop and refuse connections. Only the
 * Electron APIs (tray, notifications, windows, OS) are stand-ins.
 */
describe('desktop app against the real backend: feed, notifications, tray', () => {
  let server: TestServer;
  let target: HttpTarget;
  let proxy: DroppingProxy;
  let account: SignedInAccount;
  let dir: string;
  let app: DesktopApp;
  let vault: SafeStorageVault;
  let jobId: string;
  const tray = new RecordingTray();
  const notifications = new RecordingNotifications();
  const windows = new RecordingWindows();
  const system = new FakeSystem();
  const received: ExecutionEvent[] = [];
  let failing = true;

  const runNow = async () => {
    const run = await server.http.post(`/api/jobs/${jobId}/run`, undefined, { token: account.accessToken });
    expect(run.status).toBe(200);
    return run.body.run_id as string;
  };

  beforeAll(async () => {
    delete process.env.CRONBEAM_SERVER_URL;
    target = await HttpTarget.start();
    target.on('/backup', (_req, res) => {
      res.statusCode = failing ? 503 : 200;
      res.end(failing ? 'down' : 'ok');
    });
    server = await startTestServer(FAST_SCHEDULER_ENV);
    account = await signUpAndLogin(server);
    const created = await server.http.post(
      '/api/jobs',
      { name: 'nightly-backup', url: `${target.url}/backup`, cron_expression: '0 0 1 1 *' },
      { token: account.accessToken },
    );
    expect(created.status).toBe(200);
    jobId = created.body.job_id;
    proxy = await DroppingProxy.start(server.baseUrl);
    dir = await mkdtemp(join(tmpdir(), 'cronbeam-desktop-'));
    const settings = await SettingsStore.open(join(dir, 'settings.json'), proxy.url);
    vault = new SafeStorageVault(new FakeCipher(), join(dir, 'session.bin'));
    app = new DesktopApp({ settings, vault, tray, windows, notifications, system });
    app.feed.onOutcome((e) => received.push(e));
  });

  afterAll(async () => {
    app?.dispose();
    await proxy?.close();
    await server?.close();
    await target?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('starts signed out (tray and sign-in window), then signs in and goes live with all jobs OK', async () => {
    await app.start();
    expect(tray.last.icon).toBe('signed-out');
    expect(windows.routes).toEqual(['/login']);

    await app.session.signIn(account.email, account.password);
    await eventually(() => app.feed.state === 'live' && tray.last.icon === 'ok', 'the feed to go live');
    expect(tray.last.tooltip).toBe('Cronbeam — all jobs OK');
    expect(windows.events.at(-1)).toMatchObject({ event: 'session:changed', payload: { accessToken: app.session.current?.accessToken } });
  });

  it("a failing job's outcomes reach the tray, with exactly one notification for the episode and one for the recovery", async () => {
    const firstRun = await runNow();
    await runNow();
    await eventually(() => received.length >= 2, 'two outcomes');
    expect(received[0]).toMatchObject({ run_id: firstRun, job_id: jobId, status: 'failed', response_code: 503, will_retry: false });
    expect(tray.last.icon).toBe('failing');
    expect(tray.last.tooltip).toBe('Cronbeam — 1 job failing');
    expect(tray.last.menu.some((i) => i.type === 'submenu' && i.label === '✗ nightly-backup')).toBe(true);
    expect(notifications.shown.map((n) => [n.title, n.body])).toEqual([['Job failed: nightly-backup', 'Failed: HTTP 503: the target answered with a server error']]);

    failing = false;
    await runNow();
    await eventually(() => notifications.shown.length === 2, 'the recovery notification');
    expect(notifications.shown[1].title).toBe('Job recovered: nightly-backup');
    await eventually(() => tray.last.icon === 'ok', 'the tray to turn OK');

    notifications.shown[0].onClick();
    expect(windows.routes.at(-1)).toBe(`/dashboard/jobs?logs=${jobId}`);
  });

  it('tray actions reach the server: Run now runs the job, Pause pauses it', async () => {
    const before = received.length;
    tray.click({ kind: 'run-now', jobId });
    await eventually(() => received.length === before + 1, 'the outcome of Run now');
    expect(received.at(-1)).toMatchObject({ job_id: jobId, trigger: 'manual', status: 'success' });

    tray.click({ kind: 'pause', jobId });
    await eventually(async () => (await server.http.get(`/api/jobs/${jobId}`, { token: account.accessToken })).body.status === 'paused', 'the pause');
    await server.http.post(`/api/jobs/${jobId}/resume`, undefined, { token: account.accessToken });
  });

  it('offline while the server cannot be reached; on reconnect the outcomes stored meanwhile arrive once each, in order', async () => {
    const before = received.length;
    const lastSeen = received.at(-1)!.run_id;
    await proxy.goOffline();
    await eventually(() => app.feed.state === 'offline' && tray.last.icon === 'offline', 'the offline state');
    expect(tray.last.tooltip).toBe('Cronbeam — offline — cannot reach the server');

    failing = true;
    const missedA = await runNow();
    failing = false;
    const missedB = await runNow();

    await proxy.resume();
    await eventually(() => received.length >= before + 2, 'the missed outcomes', 30_000);
    expect(received.slice(before).map((e) => e.run_id)).toEqual([missedA, missedB]);
    expect(proxy.requestHeads.some((h) => h.startsWith('GET /api/events') && h.toLowerCase().includes(`last-event-id: ${lastSeen}`))).toBe(true);
    await eventually(() => app.feed.state === 'live', 'live again');
    // The failure and the recovery that happened while offline were each announced once.
    expect(notifications.shown.slice(2).map((n) => n.title)).toEqual(['Job failed: nightly-backup', 'Job recovered: nightly-backup']);
  });

  it('a connection the server drops resumes with Last-Event-ID without losing an outcome', async () => {
    const before = received.length;
    const lastSeen = received.at(-1)!.run_id;
    const heads = proxy.requestHeads.length;
    // The reconnect waits on the network while an outcome is stored: only a resume can deliver it.
    proxy.holdNewConnections();
    proxy.dropAll();
    await eventually(() => proxy.heldConnections > 0, 'the reconnect attempt');
    const inTheGap = await runNow();
    proxy.release();
    await eventually(() => received.length === before + 1, 'the outcome stored during the gap', 30_000);
    expect(received.at(-1)!.run_id).toBe(inTheGap);
    const reconnects = proxy.requestHeads.slice(heads).filter((h) => h.startsWith('GET /api/events'));
    expect(reconnects.length).toBeGreaterThanOrEqual(1);
    expect(reconnects[0].toLowerCase()).toContain(`last-event-id: ${lastSeen}`);
    expect(new Set(received.map((e) => e.run_id)).size).toBe(received.length);
  });

  it('a job muted in Settings fails and recovers without a notification; the tray still shows it failing', async () => {
    const muteSettings = app.settingsHandlers();
    expect((await muteSettings['settings:set-job-muted']({ jobId, muted: true })).mutedJobIds).toEqual([jobId]);
    const shown = notifications.shown.length;
    const before = received.length;
    failing = true;
    await runNow();
    await eventually(() => received.length === before + 1 && tray.last.icon === 'failing', 'the muted failure in the tray');
    failing = false;
    await runNow();
    await eventually(() => received.length === before + 2 && tray.last.icon === 'ok', 'the muted recovery in the tray');
    expect(notifications.shown.length).toBe(shown);
    await muteSettings['settings:set-job-muted']({ jobId, muted: false });
  });

  it('a heartbeat monitor going down and back: the tray counts it, one notification each, Open goes to the monitors page', async () => {
    const created = await server.http.post('/api/monitors', { name: 'nightly export', period_seconds: 3600 }, { token: account.accessToken });
    expect(created.status).toBe(200);
    const pingPath = new URL(created.body.ping_url).pathname;
    const shown = notifications.shown.length;
    // The watch has read the monitors since sign-in: a new monitor that goes down is news.
    expect((await server.http.post(`${pingPath}/fail`)).status).toBe(200);
    await app.monitors.refresh();
    expect(tray.last.tooltip).toBe('Cronbeam — 1 monitor down');
    expect(tray.last.icon).toBe('failing');
    expect(notifications.shown.slice(shown).map((n) => n.title)).toEqual(['Monitor down: nightly export']);
    tray.click({ kind: 'open-monitors' });
    expect(windows.routes.at(-1)).toBe('/dashboard/monitors');

    // Read again without a change: no second notification.
    await app.monitors.refresh();
    expect((await server.http.post(pingPath)).status).toBe(200);
    await app.monitors.refresh();
    expect(notifications.shown.slice(shown).map((n) => n.title)).toEqual(['Monitor down: nightly export', 'Monitor recovered: nightly export']);
    expect(tray.last.icon).toBe('ok');
    expect(proxy.requestHeads.filter((h) => h.startsWith('GET /api/monitors')).length).toBeGreaterThanOrEqual(4);
  });

  it('a session revoked at the server (sign out everywhere) goes to signed-out: feed stopped, tray signed out, vault empty', async () => {
    // Access tokens issued in the second of the revocation stay valid: let that second pass first.
    const issuedAt = JSON.parse(Buffer.from(app.session.current!.accessToken.split('.')[1], 'base64url').toString()).iat as number;
    await eventually(() => Math.floor(Date.now() / 1000) > issuedAt, 'the next second');
    const everywhere = await server.http.post('/api/auth/global-sign-out', undefined, { token: account.accessToken });
    expect(everywhere.status).toBe(200);
    proxy.dropAll();
    await eventually(() => app.session.state === 'signed-out', 'the session to end', 30_000);
    await eventually(() => app.feed.state === 'stopped' && tray.last.icon === 'signed-out', 'the tray to show signed out');
    expect(await vault.read()).toBeNull();
  });
});
