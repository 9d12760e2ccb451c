import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { OidcProviderProcess, type OidcAccount } from '../fakes/oidc-provider-process';
import { startTestServer, type TestServer } from '../support/test-server';
import { Authenticator } from '../support/totp-authenticator';

jest.setTimeout(120_000);

const PUBLIC_URL = 'http://localhost:3997';
const REDIRECT_URI = `${PUBLIC_URL}/auth/callback`;

/** A social sign-in stands in for the password only: an account with two-factor on still answers the code. */
describe('two-factor sign-in after a social sign-in', () => {
  let oidc: OidcProviderProcess;
  let server: TestServer;

  beforeAll(async () => {
    oidc = await OidcProviderProcess.start(REDIRECT_URI);
    server = await startTestServer({
      PUBLIC_URL,
      GOOGLE_OIDC_ISSUER: oidc.issuer,
      GOOGLE_CLIENT_ID: oidc.clientId,
      GOOGLE_CLIENT_SECRET: oidc.clientSecret,
    });
  });
  afterAll(async () => {
    await server?.close();
    await oidc?.stop();
  });

  /** Plays the browser through the provider (it signs in as `account` at once) and posts the callback's code. */
  async function socialLogin(account: OidcAccount) {
    await oidc.signInNextAs(account);
    const start = await server.http.get('/api/auth/social/authorize?provider=google&intent=login');
    const flowCookie = start.headers.getSetCookie().find((c) => c.startsWith('cb_oauth_flow='))!.split(';')[0];
    const providerCookies = new Map<string, string>();
    let location = start.headers.get('location')!;
    for (let hop = 0; !location.startsWith(REDIRECT_URI); hop++) {
      if (hop > 10) throw new Error('too many redirects at the provider');
      const cookie = [...providerCookies].map(([k, v]) => `${k}=${v}`).join('; ');
      const res = await fetch(location, { redirect: 'manual', headers: { cookie } });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        providerCookies.set(pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1));
      }
      location = new URL(res.headers.get('location')!, location).toString();
    }
    const callback = new URL(location);
    return server.http.post(
      '/api/auth/social-login',
      { code: callback.searchParams.get('code'), state: callback.searchParams.get('state'), iss: callback.searchParams.get('iss') ?? undefined },
      { headers: { cookie: flowCookie } },
    );
  }

  it('answers the code challenge, naming the account, once two-factor is on', async () => {
    const person = { sub: 'google-oauth2|2001', email: 'Mary@Example.test', name: 'Mary Jackson' };
    const first = await socialLogin(person);
    expect(first.status).toBe(200);
    const auth = { token: first.body.access_token };
    const setup = await server.http.post('/api/auth/mfa/totp/setup', undefined, auth);
    const app = new Authenticator(setup.body.secret);
    expect((await server.http.post('/api/auth/mfa/totp/enable', { code: await app.nextCode() }, auth)).status).toBe(200);

    const second = await socialLogin(person);
    expect(second.status).toBe(200);
    expect(second.body).toEqual({ challenge: 'SOFTWARE_TOKEN_MFA', session: expect.any(String), username: person.email });
    expect(second.headers.get('set-cookie') ?? '').not.toContain('cb_refresh=');

    const wrong = await server.http.post('/api/auth/challenge', { email: person.email, challenge: 'SOFTWARE_TOKEN_MFA', session: second.body.session, code: '000000' });
    expect(wrong.body).toEqual({ detail: AUTH_MESSAGES.codeMismatch });
    const done = await server.http.post('/api/auth/challenge', {
      email: second.body.username,
      challenge: 'SOFTWARE_TOKEN_MFA',
      session: second.body.session,
      code: await app.nextCode(),
    });
    expect(done.status).toBe(200);
    expect((await server.http.get('/api/account', { token: done.body.access_token })).body.email).toBe(person.email);
  });
});
