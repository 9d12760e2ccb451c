import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { latestMailedCode, signUpAndLogin } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';

// The api project's testTimeout is not applied to single-file runs; booting on the embedded database takes seconds.
jest.setTimeout(60_000);

// Long enough that ten password checks (each hashes) fit in one window on a busy machine; 3 s did not under load.
const WINDOW_SECONDS = 6;
const PER_ACCOUNT = 5;
const PER_IP = 9;

/** A server throttling with these limits over a window of `windowSeconds`. */
const throttlingServer = (windowSeconds: number) =>
  startTestServer({
    AUTH_THROTTLE_WINDOW_SECONDS: String(windowSeconds),
    AUTH_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
    AUTH_MAX_FAILURES_PER_IP: String(PER_IP),
  });
const loginOn = (server: TestServer, email: string, password: string) => server.http.post('/api/auth/login', { email, password });

/** Brute-force throttling of sign-in and codes, per account and per client address, with a short window. */
describe('sign-in throttling', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await throttlingServer(WINDOW_SECONDS);
  });
  afterAll(async () => {
    await server?.close();
  });

  const login = (email: string, password: string) => loginOn(server, email, password);

  it('throttles 20 wrong passwords in a row and refuses the right one until the window passes', async () => {
    const account = await signUpAndLogin(server);
    const statuses: number[] = [];
    let last = await login(account.email, 'wrong');
    for (let i = 0; i < 20; i++) {
      if (i > 0) last = await login(account.email, `wrong-${i}`);
      statuses.push(last.status);
    }
    expect(statuses.slice(0, PER_ACCOUNT)).toEqual(Array(PER_ACCOUNT).fill(401));
    expect(statuses.slice(PER_ACCOUNT)).toEqual(Array(20 - PER_ACCOUNT).fill(429));
    expect(last.body).toEqual({ detail: AUTH_MESSAGES.passwordAttemptsExceeded });
    const retryAfter = Number(last.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);

    const refused = await login(account.email, account.password);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ detail: AUTH_MESSAGES.passwordAttemptsExceeded });

    await new Promise((r) => setTimeout(r, WINDOW_SECONDS * 1000 + 200));
    expect((await login(account.email, account.password)).status).toBe(200);
  });

  it('caps the mails one can make the server send to an address', async () => {
    await new Promise((r) => setTimeout(r, WINDOW_SECONDS * 1000 + 200));
    const account = await signUpAndLogin(server);
    const answers: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 1; i++) answers.push((await server.http.post('/api/auth/forgot-password', { email: account.email })).status);
    expect(answers).toEqual([...Array(PER_ACCOUNT).fill(200), 429]);
  });

  it('burns a verification code after too many wrong guesses and throttles code checks', async () => {
    await new Promise((r) => setTimeout(r, WINDOW_SECONDS * 1000 + 200));
    const email = 'codes@example.test';
    await server.http.post('/api/auth/signup', { name: 'Code Guesser', email, password: 'code-guesser-1' });
    const code = await latestMailedCode(server, email);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const answers: number[] = [];
    for (let i = 0; i < PER_ACCOUNT + 1; i++) answers.push((await server.http.post('/api/auth/verify', { email, code: wrong })).status);
    expect(answers).toEqual([...Array(PER_ACCOUNT).fill(400), 429]);
    await new Promise((r) => setTimeout(r, WINDOW_SECONDS * 1000 + 200));
    // Five wrong guesses (AUTH_CODE_MAX_ATTEMPTS) burned the code: the right one is now expired.
    expect((await server.http.post('/api/auth/verify', { email, code })).body).toEqual({ detail: AUTH_MESSAGES.codeExpired });
  });
});

/**
 * One address guessing across accounts, on a server of its own: a fresh
 * address history without waiting out another test's window, and a window
 * long enough that nine password checks (each hashes) fit in it however busy
 * the machine is (with 6 s, the first guesses had expired on a loaded one).
 */
describe('sign-in throttling per address', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await throttlingServer(300);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('throttles one address guessing across many accounts', async () => {
    const login = (email: string, password: string) => loginOn(server, email, password);
    const victims = await Promise.all([1, 2, 3].map(() => signUpAndLogin(server)));
    // PER_IP failures spread so that no single account reaches its own limit.
    for (let i = 0; i < PER_IP; i++) expect((await login(victims[i % 2].email, `guess-${i}`)).status).toBe(401);
    const untouched = await login(victims[2].email, victims[2].password);
    expect(untouched.status).toBe(429);
    expect(untouched.body).toEqual({ detail: AUTH_MESSAGES.passwordAttemptsExceeded });
  });
});
