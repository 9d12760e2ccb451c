import { randomBytes } from 'node:crypto';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { runServerProcess } from '../support/server-process';
import { eventually } from './scheduler-fixtures';
import { startTestServer, type TestServer } from '../support/test-server';

jest.setTimeout(120_000);

const PER_IP = 6;
/** The client's real address, as the one proxy in front appends it to X-Forwarded-For. */
const CLIENT = '203.0.113.7';
const spoofed = () => `198.51.100.${randomBytes(1)[0]! % 250}, 10.${randomBytes(1)[0]}.0.1`;

/**
 * Per-address limits count the address the nearest trusted proxy saw. The
 * test stands in for a proxy on loopback (TRUST_PROXY=1): each request
 * carries what a client wrote into X-Forwarded-For itself, followed by the
 * address the proxy appended.
 */
describe('the client address behind a trusted proxy', () => {
  let server: TestServer;
  let victim: SignedInAccount;

  beforeAll(async () => {
    server = await startTestServer({
      TRUST_PROXY: '1',
      AUTH_MAX_FAILURES_PER_IP: String(PER_IP),
      AUTH_MAX_FAILURES_PER_ACCOUNT: '1000',
      AUTH_THROTTLE_WINDOW_SECONDS: '600',
    });
    victim = await signUpAndLogin(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const login = (password: string, forwardedFor: string) =>
    server.http.post('/api/auth/login', { email: victim.email, password }, { headers: { 'x-forwarded-for': forwardedFor } });

  it('a client rotating a spoofed left-most X-Forwarded-For still reaches the per-address sign-in limit', async () => {
    const serial: number[] = [];
    for (let i = 0; i < PER_IP; i += 1) serial.push((await login(`wrong-${i}`, `${spoofed()}, ${CLIENT}`)).status);
    expect(serial).toEqual(Array(PER_IP).fill(401));

    const burst = await Promise.all(Array.from({ length: 10 }, (_, i) => login(`burst-${i}`, `${spoofed()}, ${CLIENT}`)));
    expect(burst.map((r) => r.status)).toEqual(Array(10).fill(429));
    expect(burst[0]!.body).toEqual({ detail: AUTH_MESSAGES.passwordAttemptsExceeded });
    // The right password from that address waits too; the same account from another address is not blocked by it.
    expect((await login(victim.password, `${spoofed()}, ${CLIENT}`)).status).toBe(429);
    expect((await login(victim.password, '203.0.113.99')).status).toBe(200);

    // Each line is written when its response closes: wait for the last one.
    const loginAddresses = () =>
      server.logs
        .entries()
        .filter((e) => e.msg === 'request completed' && (e.req as { url: string }).url === '/api/auth/login')
        .map((e) => (e.req as { clientAddress: string }).clientAddress);
    await eventually(async () => loginAddresses().includes('203.0.113.99'), 10_000, 'the last sign-in logged');
    const addresses = loginAddresses();
    expect(addresses.filter((a) => a === CLIENT)).toHaveLength(PER_IP + 11);
    expect(addresses.filter((a) => a !== CLIENT)).toEqual(['127.0.0.1', '203.0.113.99']);
  });
});

describe('TRUST_PROXY at start-up', () => {
  it('refuses true, which would let every client choose its address, naming what to set instead', async () => {
    const run = runServerProcess({ TRUST_PROXY: 'true' });
    expect(await run.exitCode()).toBe(78);
    expect(run.output()).toMatch(/TRUST_PROXY: true would take the left-most X-Forwarded-For address, which any client writes itself; give the number of proxies in front \(e\.g\. 1\)/);
  });
});
