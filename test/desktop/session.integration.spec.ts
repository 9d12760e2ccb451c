import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REFRESH_AHEAD_MS, Session, SessionError } from '../../desktop/main/session/session';
import { SafeStorageVault } from '../../desktop/main/session/token-vault';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { FakeCipher } from './support/fake-electron';
import { eventually, ManualTimers } from './support/manual-timers';

jest.setTimeout(60_000);

/** A loopback port nothing listens on: connecting to it fails at once, like a server that is down. */
async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

describe('desktop Session against the real backend', () => {
  let server: TestServer;
  let dir: string;
  let account: SignedInAccount;

  beforeAll(async () => {
    server = await startTestServer();
    account = await signUpAndLogin(server);
    dir = await mkdtemp(join(tmpdir(), 'cronbeam-session-'));
  });

  afterAll(async () => {
    await server?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  function newSession(file: string, timers = new ManualTimers(), serverUrl = () => server.baseUrl) {
    const vault = new SafeStorageVault(new FakeCipher(), join(dir, file));
    return { session: new Session({ serverUrl, vault, timers, random: () => 0 }), vault, timers };
  }

  async function jobsStatus(token: string | null): Promise<number> {
    return (await server.http.get('/api/jobs', { token: token ?? '' })).status;
  }

  it('signs in once and stays signed in across a restart through the vault', async () => {
    const first = newSession('restart.bin');
    const states: string[] = [];
    first.session.onChange((s) => states.push(s));
    await first.session.signIn(account.email, account.password);
    expect(states).toEqual(['signed-in']);
    expect(await jobsStatus(await first.session.accessToken())).toBe(200);
    const stored = await first.vault.read();
    expect(stored?.accessToken).toBe(first.session.current?.accessToken);
    first.session.dispose();

    // The app restarts: a new Session over the same vault, no password asked.
    const second = newSession('restart.bin');
    expect(await second.session.restore()).toBe('signed-in');
    expect(await jobsStatus(await second.session.accessToken())).toBe(200);
    second.session.dispose();
  });

  it('answers the server message for wrong credentials and stores nothing', async () => {
    const { session, vault } = newSession('wrong.bin');
    const error = await session.signIn(account.email, 'not-the-password').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionError);
    expect((error as SessionError).message).toBe('Incorrect email or password');
    expect(session.state).toBe('signed-out');
    expect(await vault.read()).toBeNull();
  });

  it('refreshes before expiry: one timer at expiry minus the lead time, new tokens stored', async () => {
    const { session, vault, timers } = newSession('refresh.bin');
    await session.signIn(account.email, account.password);
    const before = session.current!;
    const ttl = server.config.env.AUTH_TOKEN_TTL_SECONDS * 1000;
    expect(timers.scheduled).toEqual([ttl - REFRESH_AHEAD_MS]);

    timers.advance(ttl - REFRESH_AHEAD_MS);
    await expectEventually(() => session.current?.refreshToken !== before.refreshToken);
    const after = session.current!;
    expect(after.expiresAt).toBe(timers.now() + ttl);
    // The session takes the new tokens in use first and then stores them: wait for the vault to hold them.
    await eventually(async () => JSON.stringify(await vault.read()) === JSON.stringify(after), 'the new tokens in the vault');
    expect(await vault.read()).toEqual(after);
    expect(await jobsStatus(after.accessToken)).toBe(200);
    // The next refresh is planned from the new expiry.
    expect(timers.scheduled).toEqual([ttl - REFRESH_AHEAD_MS]);
    session.dispose();
  });

  it('retries a refresh the server cannot answer with the identity backoff (100 ms doubling plus jitter, 5 s ceiling)', async () => {
    const down = await closedPortUrl();
    let url = server.baseUrl;
    const timers = new ManualTimers();
    const vault = new SafeStorageVault(new FakeCipher(), join(dir, 'backoff.bin'));
    const session = new Session({ serverUrl: () => url, vault, timers, random: () => 0 });
    await session.signIn(account.email, account.password);
    const before = session.current!;

    url = down;
    const refreshed = session.refresh();
    const delays: number[] = [];
    for (let i = 0; i < 8; i++) {
      await expectEventually(() => timers.scheduled.length === 2, 'a retry timer');
      const retry = Math.min(...timers.scheduled);
      delays.push(retry);
      timers.advance(retry);
    }
    expect(delays).toEqual([100, 200, 400, 800, 1600, 3200, 5000, 5000]);
    expect(session.state).toBe('signed-in');

    // The server is back once the next retry is waiting (switching earlier would let a retry in flight succeed).
    await expectEventually(() => timers.scheduled.length === 2, 'a retry timer');
    url = server.baseUrl;
    timers.advance(Math.min(...timers.scheduled));
    expect(await refreshed).toBe(true);
    expect(session.current!.refreshToken).not.toBe(before.refreshToken);
    session.dispose();
  });

  it('sign-out revokes the refresh token at the server and clears the vault', async () => {
    const { session, vault } = newSession('signout.bin');
    await session.signIn(account.email, account.password);
    const { refreshToken } = session.current!;
    await session.signOut();
    expect(session.state).toBe('signed-out');
    expect(await vault.read()).toBeNull();
    expect(await session.accessToken()).toBeNull();
    const reuse = await server.http.post('/api/auth/refresh', { refresh_token: refreshToken });
    expect(reuse.status).toBe(401);
  });

  it('a session revoked elsewhere (sign out everywhere) goes to signed-out on its next refresh', async () => {
    const other = await signUpAndLogin(server);
    const { session, vault } = newSession('revoked.bin');
    const states: string[] = [];
    session.onChange((s) => states.push(s));
    await session.signIn(other.email, other.password);
    const everywhere = await server.http.post('/api/auth/global-sign-out', undefined, { token: other.accessToken });
    expect(everywhere.status).toBe(200);

    expect(await session.refresh()).toBe(false);
    expect(states).toEqual(['signed-in', 'signed-out']);
    expect(await vault.read()).toBeNull();
  });
});

async function expectEventually(test: () => boolean, what = 'the condition'): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
