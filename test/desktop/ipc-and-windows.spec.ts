import { IPC_EVENT_CHANNELS, IPC_INVOKE_CHANNELS, IpcValidationError } from '@cronbeam/shared/desktop/ipc-contract';
import { routeForDeepLink, deepLinkInArgs } from '../../desktop/main/deep-link';
import { dispatchInvoke, type IpcHandlers, type IpcMainPort, registerIpcHandlers } from '../../desktop/main/ipc/ipc-registry';
import { createDesktopBridge, type IpcRendererPort } from '../../desktop/preload/bridge';
import {
  CONTENT_SECURITY_POLICY,
  isAllowedExternalUrl,
  isAppUrl,
  secureWebPreferences,
} from '../../desktop/main/windows/window-security';

function recordingHandlers() {
  const calls: Array<[string, unknown]> = [];
  const handlers = Object.fromEntries(
    IPC_INVOKE_CHANNELS.map((channel) => [channel, (arg: unknown) => (calls.push([channel, arg]), { ok: channel })]),
  ) as unknown as IpcHandlers;
  return { handlers, calls };
}

describe('typed IPC', () => {
  it('validates arguments in main: a bad one never reaches the handler and names the problem', async () => {
    const { handlers, calls } = recordingHandlers();
    await expect(dispatchInvoke(handlers, 'session:set', { key: 'password', value: 'x' })).rejects.toThrow('session:set: Unknown session key');
    await expect(dispatchInvoke(handlers, 'settings:set-server-url', { url: 'http://evil.example.com' })).rejects.toThrow(
      'Server URL must use https (http only for localhost)',
    );
    await expect(dispatchInvoke(handlers, 'settings:set-server-url', { url: 'not a url' })).rejects.toThrow('Server URL must be a valid URL');
    await expect(dispatchInvoke(handlers, 'settings:set-job-muted', { jobId: '1; DROP', muted: true })).rejects.toBeInstanceOf(IpcValidationError);
    await expect(dispatchInvoke(handlers, 'session:remove', { key: 'idToken', extra: 1 })).rejects.toBeInstanceOf(IpcValidationError);
    expect(calls).toEqual([]);

    await dispatchInvoke(handlers, 'settings:set-server-url', { url: ' https://cron.example.com/ ' });
    expect(calls).toEqual([['settings:set-server-url', { url: 'https://cron.example.com' }]]);
  });

  it('registers every channel of the contract and refuses callers outside the app', async () => {
    const registered = new Map<string, (event: { senderFrame: { url: string } | null }, ...args: unknown[]) => unknown>();
    const ipcMain: IpcMainPort = { handle: (channel, listener) => void registered.set(channel, listener) };
    const { handlers } = recordingHandlers();
    registerIpcHandlers(ipcMain, (url) => url?.startsWith('app://cronbeam/') === true, handlers);
    expect([...registered.keys()].sort()).toEqual([...IPC_INVOKE_CHANNELS].sort());
    const load = registered.get('session:load')!;
    await expect(Promise.resolve(load({ senderFrame: { url: 'app://cronbeam/dashboard' } }))).resolves.toEqual({ ok: 'session:load' });
    await expect(Promise.resolve().then(() => load({ senderFrame: { url: 'https://evil.example.com/' } }))).rejects.toThrow('caller is not the app window');
    expect(() => registerIpcHandlers(ipcMain, () => true, { 'session:load': handlers['session:load'] })).toThrow('No IPC handler for');
  });

  it('the preload exposes only the typed API: platform, apiBase, invoke on known channels, on for known events', async () => {
    const sent: unknown[][] = [];
    const listeners = new Map<string, (event: unknown, payload: unknown) => void>();
    const ipc: IpcRendererPort = {
      invoke: async (...args) => (sent.push(args), 'answer'),
      on: (channel, listener) => listeners.set(channel, listener),
      removeListener: (channel) => listeners.delete(channel),
    };
    const bridge = createDesktopBridge(ipc, ['electron', '--cronbeam-api-base=app://cronbeam/api']);
    expect(Object.keys(bridge).sort()).toEqual(['apiBase', 'invoke', 'on', 'platform']);
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(bridge.apiBase).toBe('app://cronbeam/api');

    await expect(bridge.invoke('session:load')).resolves.toBe('answer');
    await (bridge.invoke as (c: string, ...a: unknown[]) => Promise<unknown>)('session:set', { key: 'idToken', value: 'v' }, 'smuggled');
    expect(sent).toEqual([['session:load'], ['session:set', { key: 'idToken', value: 'v' }]]);
    await expect((bridge.invoke as (c: string) => Promise<unknown>)('fs:read')).rejects.toThrow('Unknown channel fs:read');
    expect(() => (bridge.on as (e: string, l: () => void) => void)('ipc:raw', () => undefined)).toThrow('Unknown event ipc:raw');

    // Listeners get the payload only, never the IPC event (whose sender could reach any channel).
    const received: unknown[] = [];
    const off = bridge.on('session:changed', (payload) => received.push(payload));
    listeners.get('session:changed')!({ sender: { send: () => undefined } }, { idToken: 'x' });
    expect(received).toEqual([{ idToken: 'x' }]);
    off();
    expect(listeners.has('session:changed')).toBe(false);
    expect(IPC_EVENT_CHANNELS).toEqual(['session:changed']);
  });
});

describe('window security', () => {
  it('keeps the security flags on every window', () => {
    expect(secureWebPreferences('/app/preload/index.js')).toEqual({
      preload: '/app/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
      additionalArguments: ['--cronbeam-api-base=app://cronbeam/api'],
    });
  });

  it('a strict CSP: own scripts only, nothing inline, no objects, no framing', () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/script-src[^;]*unsafe/);
    expect(CONTENT_SECURITY_POLICY).toContain("object-src 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toContain("connect-src 'self'");
  });

  it('navigation stays in the app; external links pass the allowlist only', () => {
    expect(isAppUrl('app://cronbeam/dashboard')).toBe(true);
    expect(isAppUrl('https://evil.example.com/')).toBe(false);
    expect(isAppUrl('file:///etc/passwd')).toBe(false);
    expect(isAppUrl('http://localhost:5173/login', 'http://localhost:5173')).toBe(true);

    const server = 'https://cron.example.com';
    expect(isAllowedExternalUrl('https://cron.example.com/pricing', server)).toBe(true);
    expect(isAllowedExternalUrl('https://docs.cronbeam.io/guides', server)).toBe(true);
    expect(isAllowedExternalUrl('http://docs.cronbeam.io/guides', server)).toBe(false);
    expect(isAllowedExternalUrl('https://cronbeam.io.evil.com/', server)).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@cronbeam.io/', server)).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)', server)).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd', server)).toBe(false);
  });

  it('deep links cronbeam://jobs/<id> open that job; anything else is ignored', () => {
    const id = '7d1f1e4e-3a55-4c3e-9b0f-2a0e6c1d9e11';
    expect(routeForDeepLink(`cronbeam://jobs/${id}`)).toBe(`/dashboard/jobs?logs=${id}`);
    expect(routeForDeepLink('cronbeam://jobs/../../etc')).toBeNull();
    expect(routeForDeepLink('cronbeam://settings/x')).toBeNull();
    expect(routeForDeepLink('https://jobs/x')).toBeNull();
    expect(deepLinkInArgs(['/opt/Cronbeam/cronbeam', '--flag', `cronbeam://jobs/${id}`])).toBe(`cronbeam://jobs/${id}`);
  });
});
