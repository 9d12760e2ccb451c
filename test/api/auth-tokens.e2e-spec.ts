import { createHmac, createPublicKey, generateKeyPairSync, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Client } from 'pg';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { decodeMasterKey, SecretBox } from '../../backend/src/common/crypto/secret-box';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually } from './scheduler-fixtures';

// The api project's testTimeout is not applied to single-file runs; booting on the embedded database takes seconds.
jest.setTimeout(60_000);

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The bearer guard against forged tokens. The forger holds the server's real
 * signing key (read from its database, decrypted with its master key)
 * wherever a test needs a correctly signed token with one wrong claim, so
 * only that claim can be the reason.
 */
describe('bearer tokens: what the guard refuses', () => {
  let server: TestServer;
  let account: SignedInAccount;
  let signingKey: { kid: string; pem: string };
  let publicPem: string;

  const validClaims = () => {
    const now = Math.floor(Date.now() / 1000);
    return { sub: account.userId, token_use: 'access', client_id: 'cronbeam-web', iss: server.config.publicUrl, iat: now, exp: now + 600, jti: randomUUID() };
  };
  const sign = (claims: object, key = signingKey.pem, kid = signingKey.kid) => jwt.sign(claims, key, { algorithm: 'RS256', keyid: kid });
  const call = (token: string) => server.http.get('/api/account', { token });

  beforeAll(async () => {
    server = await startTestServer();
    account = await signUpAndLogin(server);
    const db = new Client({ connectionString: server.database.url });
    await db.connect();
    try {
      const row = (await db.query(`SELECT kid, private_key_pem FROM signing_keys WHERE retired_at IS NULL`)).rows[0];
      // Stored sealed: the forger needs the master key too.
      const box = new SecretBox(decodeMasterKey(server.config.env.ENCRYPTION_KEY!)!);
      signingKey = { kid: row.kid, pem: box.open(row.private_key_pem, `signing_keys.private_key_pem:${row.kid}`) };
    } finally {
      await db.end();
    }
    const jwks = await server.http.get('/.well-known/jwks.json');
    publicPem = createPublicKey({ key: jwks.body.keys[0], format: 'jwk' }).export({ type: 'spki', format: 'pem' }).toString();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('accepts the issued token and a correctly forged control token', async () => {
    expect((await call(account.accessToken)).status).toBe(200);
    expect((await call(sign(validClaims()))).status).toBe(200);
  });

  it.each([
    ['tampered payload', () => {
      const [header, , signature] = account.accessToken.split('.');
      return `${header}.${b64({ ...jwt.decode(account.accessToken) as object, sub: randomUUID() })}.${signature}`;
    }],
    ['tampered signature', () => account.accessToken.slice(0, -4) + (account.accessToken.endsWith('AAAA') ? 'BBBB' : 'AAAA')],
    ['expired', () => sign({ ...validClaims(), iat: Math.floor(Date.now() / 1000) - 7200, exp: Math.floor(Date.now() / 1000) - 3600 })],
    ['wrong issuer', () => sign({ ...validClaims(), iss: 'https://issuer.evil.example' })],
    ['wrong audience (client id)', () => sign({ ...validClaims(), client_id: 'some-other-client' })],
    ['ID token used as access token', () => sign({ ...validClaims(), token_use: 'id', aud: 'cronbeam-web' })],
    ['signed by an unknown key', () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      return sign(validClaims(), privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(), 'unknown-kid');
    }],
    ['signed by another key under the real kid', () => {
      const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      return sign(validClaims(), privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
    }],
    ['HS256 with the public key as the HMAC secret', () => {
      const head = b64({ alg: 'HS256', typ: 'JWT', kid: signingKey.kid });
      const body = b64(validClaims());
      return `${head}.${body}.${createHmac('sha256', publicPem).update(`${head}.${body}`).digest('base64url')}`;
    }],
    ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(validClaims())}.`],
  ])('refuses a token: %s', async (_case, forge) => {
    const res = await call(forge());
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: AUTH_MESSAGES.invalidToken });
  });

  it('refuses a token from the moment it expires, although its signature was verified when it was last used', async () => {
    const exp = Math.floor(Date.now() / 1000) + 2;
    const token = sign({ ...validClaims(), exp });
    // Used while valid: the signature is verified once and remembered.
    expect((await call(token)).status).toBe(200);
    const res = await eventually(async () => {
      const answer = await call(token);
      return answer.status !== 200 && answer;
    }, 12_000, 'the expired token refused');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ detail: AUTH_MESSAGES.invalidToken });
    // Not refused early either: the expiry, not the remembered verification, ended it.
    expect(Date.now()).toBeGreaterThanOrEqual(exp * 1000);
  });

  it('ends every session on global sign-out', async () => {
    const other = await signUpAndLogin(server);
    // iat has one-second resolution: a token from the same second as the sign-out would still pass.
    await new Promise((r) => setTimeout(r, 1_100));
    const out = await server.http.post('/api/auth/global-sign-out', {}, { token: other.accessToken });
    expect(out.status).toBe(200);
    expect((await call(other.accessToken)).status).toBe(401);
    expect((await server.http.post('/api/auth/refresh', { refresh_token: other.refreshToken })).status).toBe(401);
    await new Promise((r) => setTimeout(r, 1_100));
    const again = await server.http.post('/api/auth/login', { email: other.email, password: other.password });
    expect((await call(again.body.access_token)).status).toBe(200);
  });

  it('keeps tokens out of the logs', () => {
    const logs = server.logs.text();
    for (const secret of [account.accessToken, account.idToken, account.refreshToken, account.password, signingKey.pem.split('\n')[1]]) {
      expect(logs.includes(secret) ? secret : 'absent').toBe('absent');
    }
  });
});
