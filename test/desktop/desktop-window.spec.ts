import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import type { SessionSnapshot } from '@cronbeam/shared/desktop/ipc-contract';
import { createAppProtocolHandler } from '../../desktop/main/windows/app-protocol';
import { launchBrowser, type Browser } from '../browser/support/browser';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';

jest.setTimeout(180_000);

const root = resolve(__dirname, '../..');

/** What `npm run build:desktop` ships, built fresh into a temporary folder. */
function buildDesktop(): string {
  const outDir = mkdtempSync(join(tmpdir(), 'cronbeam-desktop-build-'));
  execFileSync(process.execPath, [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build', '--outDir', outDir, '--logLevel', 'error'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    // jest runs with NODE_ENV=test, which would make Vite bundle React's development build.
    env: { ...process.env, NODE_ENV: 'production' },
  });
  return outDir;
}

/**
 * The window's origin as Chromium sees it: an HTTP server that hands every
 * request to the app:// handler of the main process (bundle, CSP, /api
 * forwarded to the real backend without cookies). Electron's protocol.handle
 * does the same with the same handler.
 */
async function serveLikeAppProtocol(rendererDir: string, serverUrl: string): Promise<{ url: string; server: Server }> {
  const handle = createAppProtocolHandler({ rendererDir, serverUrl: () => serverUrl });
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === 'string') headers.set(name, value);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    // As Electron's protocol handler does, the request is aborted when the page goes away: the app keeps an event
    // stream open, which would otherwise be relayed from the backend forever.
    const gone = new AbortController();
    res.on('close', () => gone.abort());
    const response = await handle(new Request(`app://cronbeam${req.url}`, { method: req.method, headers, body: hasBody ? Buffer.concat(chunks) : undefined, signal: gone.signal }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    try {
      if (response.body) for await (const chunk of response.body) res.write(chunk);
    } catch (error) {
      if (!gone.signal.aborted) throw error;
    }
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/** The server URL the fake bridge's settings name. */
const SETTINGS_SERVER_URL = 'https://cronbeam.example';

/** The preload's `window.cronbeam`, faked in the page: records invokes, starts from a given session snapshot. */
async function installFakeBridge(page: Page, snapshot: SessionSnapshot): Promise<void> {
  await page.addInitScript(({ initial, serverUrl }: { initial: SessionSnapshot; serverUrl: string }) => {
    const calls: Array<[string, unknown]> = [];
    let session = { ...initial };
    // Runs in the page (compiled here without the DOM library, hence globalThis).
    Object.assign(globalThis, {
      __bridgeCalls: calls,
      cronbeam: Object.freeze({
        platform: 'desktop',
        apiBase: '/api',
        invoke: async (channel: string, arg?: { key: keyof SessionSnapshot; value?: string }) => {
          calls.push([channel, arg]);
          if (channel === 'session:load') return session;
          if (channel === 'session:set' && arg) session = { ...session, [arg.key]: arg.value };
          if (channel === 'session:remove' && arg) delete session[arg.key];
          if (channel === 'settings:get') return { serverUrl, startAtLogin: false, mutedJobIds: [], tokenStore: 'safe-storage' };
          if (channel === 'app:open-external') return { opened: true };
          return undefined;
        },
        on: () => () => undefined,
      }),
    });
  }, { initial: snapshot, serverUrl: SETTINGS_SERVER_URL });
}

/** The modules of the public site's pages (landing, legal, contact, API docs, guides), by file name without extension. */
function publicPageModules(): string[] {
  return ['pages', 'guides'].flatMap((folder) =>
    readdirSync(join(root, 'web/site', folder))
      .filter((file) => file.endsWith('.tsx'))
      .map((file) => file.replace(/\.tsx$/, '')),
  );
}

describe('the desktop window in Chromium (the built renderer, a fake preload bridge, the real backend)', () => {
  let server: TestServer;
  let browser: Browser;
  let app: { url: string; server: Server };
  let account: SignedInAccount;
  let build: string;
  let savedSession: SessionSnapshot = {};

  beforeAll(async () => {
    build = buildDesktop();
    server = await startTestServer();
    account = await signUpAndLogin(server);
    app = await serveLikeAppProtocol(join(build, 'renderer'), server.baseUrl);
    browser = await launchBrowser(app.url);
  });

  afterAll(async () => {
    await browser?.close();
    app?.server.closeAllConnections();
    await new Promise((r) => app?.server.close(r));
    await server?.close();
    if (build) rmSync(build, { recursive: true, force: true });
  });

  it('signing in stores the session through the bridge only: no token in cookies or localStorage', async () => {
    const page = await browser.newPage();
    await installFakeBridge(page, {});
    await page.goto('/login');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password').fill(account.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Dashboard' }).or(page.getByText('Recent Activity')).first().waitFor();

    const calls = (await page.evaluate(() => (globalThis as unknown as { __bridgeCalls: Array<[string, { key: string; value: string }]> }).__bridgeCalls)) ?? [];
    const stored = Object.fromEntries(calls.filter(([c]) => c === 'session:set').map(([, a]) => [a.key, a.value]));
    expect(Object.keys(stored).sort()).toEqual(expect.arrayContaining(['accessToken', 'idToken', 'refreshToken', 'tokenExpiry']));
    expect((await server.http.get('/api/jobs', { token: stored.accessToken })).status).toBe(200);

    expect(await browser.context.cookies()).toEqual([]);
    const local = await page.evaluate(() => Object.values((globalThis as unknown as { localStorage: Record<string, string> }).localStorage).join('\n'));
    for (const key of ['accessToken', 'idToken', 'refreshToken']) expect(local).not.toContain(stored[key]);
    savedSession = stored;
    await page.close();
  });

  it('carries the web app without the public site: no page module of it, none of its text', () => {
    const assets = readdirSync(join(build, 'renderer/assets'));
    const modules = publicPageModules();
    expect(modules).toEqual(expect.arrayContaining(['landing-page', 'terms-page', 'api-docs-page', 'webhooks']));
    // A chunk is named after its module plus an 8-character hash.
    expect(assets.filter((file) => modules.some((name) => new RegExp(`^${name}-[\\w-]{8}\\.(js|css)$`).test(file)))).toEqual([]);
    const code = assets.filter((file) => file.endsWith('.js')).map((file) => readFileSync(join(build, 'renderer/assets', file), 'utf8'));
    expect(code.some((text) => text.includes('These terms govern your use of'))).toBe(false);
    // The app itself is there.
    expect(assets.some((file) => /^dashboard-page-[\w-]{8}\.js$/.test(file))).toBe(true);
  });

  it('opens a public page in the browser on the configured server and stays on the app', async () => {
    const page = await browser.newPage();
    await installFakeBridge(page, savedSession);
    await page.goto('/terms?from=tray');
    await page.waitForURL('**/dashboard');
    const calls = (await page.evaluate(() => (globalThis as unknown as { __bridgeCalls: Array<[string, unknown]> }).__bridgeCalls)) ?? [];
    expect(calls.filter(([channel]) => channel === 'app:open-external')).toEqual([['app:open-external', { url: `${SETTINGS_SERVER_URL}/terms?from=tray` }]]);
    await page.close();
  });

  it('a window opened later starts signed in from the session main kept', async () => {
    const page = await browser.newPage();
    await installFakeBridge(page, savedSession);
    await page.goto('/');
    await page.waitForURL('**/dashboard');
    expect(await browser.context.cookies()).toEqual([]);
    await page.close();
  });
});
