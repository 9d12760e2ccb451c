import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { AuditEvent } from '@cronbeam/shared/audit/audit';
import { OidcProviderProcess, type OidcAccount } from '../fakes/oidc-provider-process';
import { signUpAndLogin } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { sql } from './jobs-fixtures';

// The api project's testTimeout is not applied to single-file runs; booting on the embedded database takes seconds.
jest.setTimeout(60_000);

const PUBLIC_URL = 'http://localhost:3999';
const REDIRECT_URI = `${PUBLIC_URL}/auth/callback`;

/** Cookies of one origin, as a browser would keep them across redirects. */
class CookieJar {
  private readonly cookies = new Map<string, string>();
  store(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

/** Social sign-in end to end against a real OpenID provider (oidc-provider) in a child process. */
describe('social sign-in (OpenID Connect code flow with PKCE)', () => {
  let oidc: OidcProviderProcess;
  let server: TestServer;
  const secrets: string[] = [];

  beforeAll(async () => {
    oidc = await OidcProviderProcess.start(REDIRECT_URI);
    server = await startTestServer({
      PUBLIC_URL,
      GOOGLE_OIDC_ISSUER: oidc.issuer,
      GOOGLE_CLIENT_ID: oidc.clientId,
      GOOGLE_CLIENT_SECRET: oidc.clientSecret,
    });
    secrets.push(oidc.clientSecret);
  });
  afterAll(async () => {
    await server?.close();
    await oidc?.stop();
  });

  /** The audit entries a request left, by its echoed request id. */
  const entriesOf = (requestId: string | null) => sql<AuditEvent & { account_id: string }>(server, `SELECT * FROM audit_events WHERE request_id = $1`, [requestId]);

  /** Plays the browser: start at the API, sign in at the provider, come back with a code. */
  async function browserSignIn(account: OidcAccount, intent: 'login' | 'signup') {
    await oidc.signInNextAs(account);
    const start = await server.http.get(`/api/auth/social/authorize?provider=google&intent=${intent}`);
    expect(start.status).toBe(302);
    const authorizeUrl = new URL(start.headers.get('location')!);
    const flowCookie = start.headers.getSetCookie().find((c) => c.startsWith('cb_oauth_flow='))!;
    expect(flowCookie).toMatch(/HttpOnly/);

    const providerCookies = new CookieJar();
    let location = authorizeUrl.toString();
    for (let hop = 0; !location.startsWith(REDIRECT_URI); hop++) {
      if (hop > 10) throw new Error('too many redirects at the provider');
      const res = await fetch(location, { redirect: 'manual', headers: { cookie: providerCookies.header() } });
      providerCookies.store(res);
      if (res.status < 300 || res.status >= 400) throw new Error(`provider answered ${res.status}: ${await res.text()}`);
      location = new URL(res.headers.get('location')!, location).toString();
    }
    const callback = new URL(location);
    const code = callback.searchParams.get('code')!;
    secrets.push(code);
    const state = callback.searchParams.get('state')!;
    return { authorizeUrl, cookie: flowCookie.split(';')[0], code, state, iss: callback.searchParams.get('iss') ?? undefined };
  }

  async function socialLogin(account: OidcAccount, intent: 'login' | 'signup') {
    const { cookie, code, state, iss } = await browserSignIn(account, intent);
    const res = await server.http.post('/api/auth/social-login', { code, state, iss }, { headers: { cookie } });
    if (res.status === 200) secrets.push(res.body.access_token, res.body.id_token, res.body.refresh_token);
    return res;
  }

  it('sends the browser to the provider with PKCE (S256), state, nonce and the callback page', async () => {
    const { authorizeUrl } = await browserSignIn({ sub: 'probe', email: 'probe@example.test', name: 'Probe' }, 'login');
    expect(authorizeUrl.origin).toBe(oidc.issuer);
    const q = authorizeUrl.searchParams;
    expect(q.get('client_id')).toBe(oidc.clientId);
    expect(q.get('response_type')).toBe('code');
    expect(q.get('scope')).toBe('openid email profile');
    expect(q.get('redirect_uri')).toBe(REDIRECT_URI);
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(q.get('state')).toMatch(/^[\w-]{20,}$/);
    expect(q.get('nonce')).toMatch(/^[\w-]{20,}$/);
  });

  it('creates the account on the first sign-in and reuses it on the next', async () => {
    const person = { sub: 'google-oauth2|1001', email: 'Katherine@Example.test', name: 'Katherine Johnson' };
    const first = await socialLogin(person, 'signup');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ access_token: expect.any(String), id_token: expect.any(String), refresh_token: expect.any(String), expires_in: 3600, token_type: 'Bearer' });
    const me = await server.http.get('/api/account', { token: first.body.access_token });
    expect(me.body).toMatchObject({ email: person.email, name: person.name, email_verified: true, plan: 'free' });

    // The account's creation is a sign-up: one user.signed_up in the new user's personal account, the user acting, no token or provider id in it.
    const signUps = await entriesOf(first.headers.get('x-request-id'));
    expect(signUps).toEqual([
      expect.objectContaining({
        account_id: me.body.user_id,
        actor_user_id: me.body.user_id,
        actor_key_id: null,
        actor_ip: expect.stringMatching(/127\.0\.0\.1$/),
        action: 'user.signed_up',
        target_type: 'user',
        target_id: me.body.user_id,
        changes: { name: { before: null, after: person.name }, email: { before: null, after: person.email }, social_provider: { before: null, after: 'google' } },
      }),
    ]);
    for (const secret of [person.sub, first.body.access_token, first.body.refresh_token]) expect(JSON.stringify(signUps)).not.toContain(secret);

    const second = await socialLogin(person, 'login');
    expect(second.status).toBe(200);
    // A later sign-in changes nothing.
    expect(await entriesOf(second.headers.get('x-request-id'))).toEqual([]);
    const again = await server.http.get('/api/account', { token: second.body.access_token });
    expect(again.body.user_id).toBe(me.body.user_id);
    // The session refreshes like any other.
    expect((await server.http.post('/api/auth/refresh', { refresh_token: second.body.refresh_token })).status).toBe(200);
    // A social sign-in is a recent sign-in: the operations that ask for one are allowed.
    expect((await server.http.post('/api/api-keys/generate', { name: 'social' }, { token: second.body.access_token })).status).toBe(200);
    // With no password to confirm, re-authenticating sends the user back to their provider.
    const reauth = await server.http.post('/api/auth/reauthenticate', { password: 'any-password' }, { token: second.body.access_token });
    expect(reauth).toMatchObject({ status: 400, body: { detail: AUTH_MESSAGES.reauthenticateWithSocialProvider } });
  });

  it('sends someone whose email has a password account to the password sign-in', async () => {
    const existing = await signUpAndLogin(server, { email: 'dorothy@example.test' });
    secrets.push(existing.password, existing.accessToken, existing.refreshToken);
    const person = { sub: 'google-oauth2|2002', email: 'dorothy@example.test', name: 'Dorothy Vaughan' };
    const onSignup = await socialLogin(person, 'signup');
    expect(onSignup.status).toBe(409);
    expect(onSignup.body).toEqual({ detail: AUTH_MESSAGES.emailAlreadyRegistered });
    const onLogin = await socialLogin(person, 'login');
    expect(onLogin.status).toBe(409);
    expect(onLogin.body).toEqual({ detail: AUTH_MESSAGES.socialLoginUsePassword });
    for (const refused of [onSignup, onLogin]) expect(await entriesOf(refused.headers.get('x-request-id'))).toEqual([]);
  });

  it('creates the account, its link and its sign-up entry in one transaction: an entry that cannot be written leaves no account', async () => {
    const person = { sub: 'google-oauth2|4004', email: 'annie@example.test', name: 'Annie Easley' };
    // A real failure of the entry's INSERT, in the database, for this person's sign-up only.
    await sql(server, `CREATE FUNCTION refuse_audit_entry() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'audit entry % refused by the test', NEW.action; END $$`);
    await sql(server, `CREATE TRIGGER refuse_audit_entry BEFORE INSERT ON audit_events FOR EACH ROW WHEN (NEW.changes #>> '{email,after}' = '${person.email}') EXECUTE FUNCTION refuse_audit_entry()`);
    try {
      const refused = await socialLogin(person, 'signup');
      expect(refused.status).toBe(500);
      expect(await sql(server, `SELECT id FROM users WHERE email = $1`, [person.email])).toEqual([]);
      expect(await sql(server, `SELECT user_id FROM federated_identities WHERE subject = $1`, [person.sub])).toEqual([]);
    } finally {
      await sql(server, `DROP TRIGGER refuse_audit_entry ON audit_events`);
      await sql(server, `DROP FUNCTION refuse_audit_entry()`);
    }
    // Nothing half made stands in the way: the next sign-in creates the account, linked, with its entry.
    const created = await socialLogin(person, 'signup');
    expect(created.status).toBe(200);
    const [entry, ...more] = await entriesOf(created.headers.get('x-request-id'));
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ action: 'user.signed_up', changes: { email: { before: null, after: person.email } } });
    expect(await sql(server, `SELECT user_id FROM federated_identities WHERE subject = $1`, [person.sub])).toEqual([{ user_id: entry!.target_id }]);
  });

  it('refuses a callback without a code, with a foreign state, without the flow cookie, or replayed', async () => {
    const person = { sub: 'google-oauth2|3003', email: 'mary@example.test', name: 'Mary Jackson' };
    const { cookie, code, state, iss } = await browserSignIn(person, 'login');
    const noCode = await server.http.post('/api/auth/social-login', { state }, { headers: { cookie } });
    expect(noCode.body).toEqual({ detail: AUTH_MESSAGES.noAuthorizationCode });
    const foreignState = await server.http.post('/api/auth/social-login', { code, state: 'forged-state' }, { headers: { cookie } });
    expect(foreignState.status).toBe(401);
    expect(foreignState.body).toEqual({ detail: AUTH_MESSAGES.authenticationFailed });
    const noCookie = await server.http.post('/api/auth/social-login', { code, state });
    expect(noCookie.body).toEqual({ detail: AUTH_MESSAGES.authenticationFailed });
    expect((await server.http.post('/api/auth/social-login', { code, state, iss }, { headers: { cookie } })).status).toBe(200);
    const replay = await server.http.post('/api/auth/social-login', { code, state, iss }, { headers: { cookie } });
    expect(replay.status).toBe(401);
    expect(replay.body).toEqual({ detail: AUTH_MESSAGES.codeExchangeFailed });
  });

  it('keeps codes, tokens and the client secret out of the logs', () => {
    const logs = server.logs.text();
    for (const secret of secrets) expect(logs.includes(secret) ? secret : 'absent').toBe('absent');
  });
});
