import { randomBytes } from 'node:crypto';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { API_KEY_MESSAGES } from '@cronbeam/shared/jobs/api-key-types';
import { latestMailedCode, signUpAndLogin } from '../support/accounts';
import type { HttpResult as HttpResponse } from '../support/http-client';
import { startTestServer, type TestServer } from '../support/test-server';
import { Authenticator, timeStepOf, totpAt } from '../support/totp-authenticator';

jest.setTimeout(120_000);

// Long enough that a burst and its checks fit in one window on a busy machine.
const WINDOW_SECONDS = 20;
const PER_ACCOUNT = 5;
const PER_IP = 10;
const CODE_ATTEMPTS = 3;
const BURST = 40;

/** Answers that were real checks (anything but the throttle's 429). */
const checked = (answers: HttpResponse[]) => answers.filter((a) => a.status !== 429);

function expectThrottled(res: HttpResponse, detail: string): void {
  expect(res.status).toBe(429);
  expect(res.body).toEqual({ detail });
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

/**
 * Every "N attempts per window" limit holds against a burst of parallel
 * requests: each attempt is reserved before its check, so at most N checks
 * run, and once the bucket is full the right secret is refused too.
 */
describe('attempt limits under concurrent requests', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      AUTH_THROTTLE_WINDOW_SECONDS: String(WINDOW_SECONDS),
      AUTH_MAX_FAILURES_PER_ACCOUNT: String(PER_ACCOUNT),
      AUTH_MAX_FAILURES_PER_IP: String(PER_IP),
      AUTH_CODE_MAX_ATTEMPTS: String(CODE_ATTEMPTS),
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`${BURST} parallel wrong passwords and the right one: at most ${PER_ACCOUNT} checks, then the right one is refused`, async () => {
    const account = await signUpAndLogin(server);
    const answers = await Promise.all(
      Array.from({ length: BURST + 1 }, (_, i) =>
        server.http.post('/api/auth/login', { email: account.email, password: i === BURST / 2 ? account.password : `wrong-${i}` }),
      ),
    );
    expect(checked(answers).length).toBeLessThanOrEqual(PER_ACCOUNT);
    expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(BURST + 1 - PER_ACCOUNT);
    expectThrottled(answers.find((a) => a.status === 429)!, AUTH_MESSAGES.passwordAttemptsExceeded);
    // The bucket may have been cleared by the right password inside the burst; wrong ones fill it again.
    for (let i = 0; i < PER_ACCOUNT; i++) await server.http.post('/api/auth/login', { email: account.email, password: `again-${i}` });
    expectThrottled(await server.http.post('/api/auth/login', { email: account.email, password: account.password }), AUTH_MESSAGES.passwordAttemptsExceeded);
  });

  it(`${BURST} parallel wrong reset codes: at most ${CODE_ATTEMPTS} are compared and the code is then dead`, async () => {
    const account = await signUpAndLogin(server);
    expect((await server.http.post('/api/auth/forgot-password', { email: account.email })).status).toBe(200);
    const code = await latestMailedCode(server, account.email);
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        server.http.post('/api/auth/reset-password', { email: account.email, code: wrong(i), new_password: 'never-set-1' }),
      ),
    );
    const mismatches = answers.filter((a) => a.status === 400 && a.body.detail === AUTH_MESSAGES.codeMismatch);
    expect(mismatches.length).toBeLessThanOrEqual(CODE_ATTEMPTS);
    expect(checked(answers).length).toBeLessThanOrEqual(PER_ACCOUNT);
    expect(checked(answers).every((a) => a.status === 400)).toBe(true);

    // Once the window ends, the right code is refused all the same: it died with its attempts.
    const deadline = Date.now() + (WINDOW_SECONDS + 10) * 1000;
    let right: HttpResponse;
    do {
      right = await server.http.post('/api/auth/reset-password', { email: account.email, code, new_password: 'now-set-12' });
      if (right.status === 429) await new Promise((r) => setTimeout(r, 250));
    } while (right.status === 429 && Date.now() < deadline);
    expect(right.status).toBe(400);
    expect(right.body).toEqual({ detail: AUTH_MESSAGES.codeExpired });
    expect((await server.http.post('/api/auth/login', { email: account.email, password: account.password })).status).toBe(200);
  });

  it(`${BURST} parallel wrong authenticator codes: at most ${PER_ACCOUNT} checks, then the right one is refused`, async () => {
    const account = await signUpAndLogin(server);
    const auth = { token: account.accessToken };
    const setup = await server.http.post('/api/auth/mfa/totp/setup', undefined, auth);
    expect(setup.status).toBe(200);
    const app = new Authenticator(setup.body.secret);
    // Codes of no step the server accepts now (it allows one step of drift either side, and the burst may cross a step).
    const step = timeStepOf(Date.now());
    const accepted = new Set([-1, 0, 1, 2].map((d) => totpAt(setup.body.secret, step + d)));
    const wrongCodes = Array.from({ length: BURST + 4 }, (_, i) => String(100_000 + i * 7919)).filter((c) => !accepted.has(c));
    const wrong = (i: number) => wrongCodes[i]!;
    const answers = await Promise.all(Array.from({ length: BURST }, (_, i) => server.http.post('/api/auth/mfa/totp/enable', { code: wrong(i) }, auth)));
    expect(checked(answers).length).toBeLessThanOrEqual(PER_ACCOUNT);
    expect(checked(answers).every((a) => a.status === 400 && a.body.detail === AUTH_MESSAGES.codeMismatch)).toBe(true);
    expectThrottled(answers.find((a) => a.status === 429)!, AUTH_MESSAGES.passwordAttemptsExceeded);
    expectThrottled(await server.http.post('/api/auth/mfa/totp/enable', { code: await app.nextCode() }, auth), AUTH_MESSAGES.passwordAttemptsExceeded);
  });

  it(`${BURST} parallel password-reset requests send at most ${PER_ACCOUNT} mails`, async () => {
    const account = await signUpAndLogin(server);
    const mailsTo = async () =>
      ((await server.http.get('/api/dev/outbox')).body as Array<{ to: string }>).filter((m) => m.to.toLowerCase() === account.email.toLowerCase()).length;
    const before = await mailsTo();
    const answers = await Promise.all(Array.from({ length: BURST }, () => server.http.post('/api/auth/forgot-password', { email: account.email })));
    expect(answers.filter((a) => a.status === 200).length).toBeLessThanOrEqual(PER_ACCOUNT);
    expect(answers.filter((a) => a.status !== 200 && a.status !== 429)).toEqual([]);
    expect((await mailsTo()) - before).toBeLessThanOrEqual(PER_ACCOUNT);
  });

  it(`${BURST} parallel wrong API keys: at most ${PER_IP} look-ups, then the right key is refused`, async () => {
    const account = await signUpAndLogin(server);
    const generated = await server.http.post('/api/api-keys/generate', { name: 'burst' }, { token: account.accessToken });
    expect(generated.status).toBe(200);
    const apiKey: string = generated.body.api_key;
    const answers = await Promise.all(
      Array.from({ length: BURST }, () => server.http.get('/prog/jobs', { token: `cb_live_${randomBytes(24).toString('base64url')}` })),
    );
    expect(checked(answers).length).toBeLessThanOrEqual(PER_IP);
    expect(checked(answers).every((a) => a.status === 401 && a.body.detail === API_KEY_MESSAGES.invalidKey)).toBe(true);
    expectThrottled(answers.find((a) => a.status === 429)!, API_KEY_MESSAGES.tooManyFailures);
    expectThrottled(await server.http.get('/prog/jobs', { token: apiKey }), API_KEY_MESSAGES.tooManyFailures);
  });
});

describe('sign-up throttling per client address', () => {
  const SIGNUPS = 4;
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ AUTH_MAX_SIGNUPS_PER_IP: String(SIGNUPS) });
  });
  afterAll(async () => {
    await server?.close();
  });

  it(`${BURST} parallel sign-ups from one address create ${SIGNUPS} accounts; the rest get 429 with Retry-After`, async () => {
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        server.http.post('/api/auth/signup', { name: 'Burst', email: `burst-${i}-${randomBytes(3).toString('hex')}@example.test`, password: 'burst-password-1' }),
      ),
    );
    expect(answers.filter((a) => a.status === 201)).toHaveLength(SIGNUPS);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(BURST - SIGNUPS);
    expectThrottled(answers.find((a) => a.status === 429)!, AUTH_MESSAGES.tooManySignUps);
  });
});
