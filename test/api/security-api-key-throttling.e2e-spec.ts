import { randomBytes } from 'node:crypto';
import { API_KEY_MESSAGES } from '@cronbeam/shared/jobs/api-key-types';
import type { SignedInAccount } from '../support/accounts';
import { startServerWithApiKey } from '../support/api-key-account';
import type { TestServer } from '../support/test-server';

jest.setTimeout(120_000);

/** Failed /prog authentications are throttled per client address, as failed sign-ins are (default: 100 per 15 minutes). */
describe('throttling of failed API-key authentications', () => {
  let server: TestServer;
  let user: SignedInAccount;
  let apiKey: string;

  beforeAll(async () => {
    ({ server, user, apiKey } = await startServerWithApiKey('throttle'));
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 401 to the first 100 random keys from one address, then 429 with Retry-After, to the right key too', async () => {
    expect((await server.http.get('/prog/jobs', { token: apiKey })).status).toBe(200);
    // Calls without any key are answered but not counted: they guess nothing.
    for (let i = 0; i < 5; i += 1) expect((await server.http.get('/prog/jobs')).status).toBe(401);

    const statuses: number[] = [];
    for (let i = 0; i < 150; i += 1) {
      const guess = `cb_${randomBytes(24).toString('base64url')}`;
      const res =
        i % 2 === 0
          ? await server.http.get('/prog/jobs', { token: guess })
          : await server.http.get('/prog/jobs', { headers: { 'x-api-key': guess, 'x-user-id': user.userId } });
      statuses.push(res.status);
      if (res.status === 429) {
        expect(res.body).toEqual({ detail: API_KEY_MESSAGES.tooManyFailures });
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      } else {
        expect(res.body).toEqual({ detail: API_KEY_MESSAGES.invalidKey });
      }
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    expect(statuses.indexOf(429)).toBe(100);

    // A guesser must not tell a hit from a miss: the right key is refused the same way now.
    for (const res of [
      await server.http.get('/prog/jobs', { token: apiKey }),
      await server.http.get('/prog/jobs', { headers: { 'x-api-key': apiKey, 'x-user-id': user.userId } }),
    ]) {
      expect(res.status).toBe(429);
      expect(res.body).toEqual({ detail: API_KEY_MESSAGES.tooManyFailures });
    }
  });

  it('keeps the bucket apart from sign-ins: the account still signs in from that address', async () => {
    const login = await server.http.post('/api/auth/login', { email: user.email, password: user.password });
    expect(login.status).toBe(200);
  });
});
