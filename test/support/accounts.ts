import { randomBytes } from 'node:crypto';
import type { TestServer } from './test-server';

export interface SignedInAccount {
  userId: string;
  email: string;
  password: string;
  accessToken: string;
  idToken: string;
  refreshToken: string;
}

interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
  created_at: string;
}

/** The newest six-digit code mailed to the address, read from the dev outbox (servers without SMTP_URL). */
export async function latestMailedCode(server: Pick<TestServer, 'http'>, email: string): Promise<string> {
  const outbox = await server.http.get<OutboxEntry[]>('/api/dev/outbox');
  if (outbox.status !== 200) throw new Error(`dev outbox answered ${outbox.status}`);
  const mail = outbox.body.find((m) => m.to.toLowerCase() === email.toLowerCase());
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/**
 * A verified, signed-in account made through the real HTTP flow: sign up,
 * read the code from the dev outbox, verify, log in.
 */
export async function signUpAndLogin(
  server: Pick<TestServer, 'http'>,
  opts: { email?: string; name?: string; password?: string } = {},
): Promise<SignedInAccount> {
  const email = opts.email ?? `user-${randomBytes(6).toString('hex')}@example.test`;
  const password = opts.password ?? `Pw-${randomBytes(9).toString('base64url')}`;
  const name = opts.name ?? 'Test User';

  const signup = await server.http.post('/api/auth/signup', { name, email, password });
  if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${signup.text}`);
  const code = await latestMailedCode(server, email);
  const verify = await server.http.post('/api/auth/verify', { email, code });
  if (verify.status !== 200) throw new Error(`verify answered ${verify.status}: ${verify.text}`);
  const login = await server.http.post('/api/auth/login', { email, password });
  if (login.status !== 200) throw new Error(`login answered ${login.status}: ${login.text}`);

  return {
    userId: signup.body.user_id,
    email,
    password,
    accessToken: login.body.access_token,
    idToken: login.body.id_token,
    refreshToken: login.body.refresh_token,
  };
}
