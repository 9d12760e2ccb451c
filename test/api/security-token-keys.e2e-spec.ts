import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { CognitoLocalProcess } from '../fakes/cognito-local-process';
import { latestMailedCode } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';

// cognito-local and two app servers take seconds to boot; the floods take a few more.
jest.setTimeout(120_000);

/** Signs access tokens that look right in every claim but carry a random kid and a key nobody published. */
const forgerKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
function forgedToken(issuer: string, clientId: string): string {
  return jwt.sign({ token_use: 'access', client_id: clientId }, forgerKey, {
    algorithm: 'RS256',
    keyid: randomBytes(16).toString('base64url'),
    issuer,
    subject: randomUUID(),
    expiresIn: 600,
  });
}

/** A signed-in session that hands out a new access token (never verified before) on each refresh. */
interface Session {
  refresh(): Promise<string>;
}

/**
 * Fires `waves` waves of `perWave` forged tokens in parallel; the first wave
 * lands before any legitimate token was verified (a restart's cold cache),
 * and each later wave runs alongside a batch of legitimate calls, each with
 * a token never verified before (a fresh refresh), so every one of them
 * needs its signing key. Answers the statuses of both.
 */
async function floodWithLegitimateCalls(server: TestServer, session: Session, forge: () => string, waves = 4, perWave = 100) {
  const forged = (n: number) => Array.from({ length: n }, () => server.http.get('/api/account', { token: forge() }).then((r) => r.status));
  const forgedStatuses: number[] = await Promise.all(forged(perWave));
  const legitimateStatuses: number[] = [];
  for (let wave = 1; wave < waves; wave++) {
    const tokens: string[] = [];
    for (let i = 0; i < 3; i++) tokens.push(await session.refresh());
    const legit = tokens.map((token) => server.http.get('/api/account', { token }).then((r) => r.status));
    const [flood, calls] = await Promise.all([Promise.all(forged(perWave)), Promise.all(legit)]);
    forgedStatuses.push(...flood);
    legitimateStatuses.push(...calls);
  }
  return { forgedStatuses, legitimateStatuses };
}

function refreshingSession(server: TestServer, firstRefreshToken: string): Session {
  let refreshToken = firstRefreshToken;
  return {
    async refresh() {
      const res = await server.http.post('/api/auth/refresh', { refresh_token: refreshToken });
      if (res.status !== 200) throw new Error(`refresh answered ${res.status}: ${res.text}`);
      refreshToken = res.body.refresh_token;
      return res.body.access_token as string;
    },
  };
}

describe('forged tokens with unknown signing keys cannot lock users out', () => {
  describe('local provider', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(async () => {
      await server?.close();
    });

    it('answers every legitimate call 200 and every forged one 401 while hundreds of forged tokens with random kids arrive in parallel', async () => {
      const email = `keys-${randomBytes(4).toString('hex')}@example.test`;
      const password = 'Key-Flood-Password-1';
      expect((await server.http.post('/api/auth/signup', { name: 'Key Flood', email, password })).status).toBe(201);
      expect((await server.http.post('/api/auth/verify', { email, code: await latestMailedCode(server, email) })).status).toBe(200);
      const login = await server.http.post('/api/auth/login', { email, password });
      expect(login.status).toBe(200);
      const issuer = server.config.publicUrl.replace(/\/+$/, '');
      const { forgedStatuses, legitimateStatuses } = await floodWithLegitimateCalls(
        server,
        refreshingSession(server, login.body.refresh_token),
        () => forgedToken(issuer, server.config.env.AUTH_CLIENT_ID),
      );
      expect(new Set(forgedStatuses)).toEqual(new Set([401]));
      expect(legitimateStatuses).toEqual(Array(legitimateStatuses.length).fill(200));
      expect(legitimateStatuses.length).toBe(9);
    });
  });

  describe('Cognito provider (against cognito-local)', () => {
    const PUBLIC_URL = 'http://localhost:3997';
    let cognito: CognitoLocalProcess;
    let server: TestServer;
    let pool: { userPoolId: string; clientId: string };

    beforeAll(async () => {
      cognito = await CognitoLocalProcess.start();
      pool = await cognito.createPool(`${PUBLIC_URL}/auth/callback`);
      server = await startTestServer({
        ...cognito.serverEnv(pool, PUBLIC_URL),
      });
    });
    afterAll(async () => {
      await server?.close();
      await cognito?.stop();
    });

    it("serves the pool's known key from its cache while hundreds of forged tokens with random kids arrive in parallel", async () => {
      const email = `pool-keys-${randomBytes(4).toString('hex')}@example.test`;
      const password = 'Pool-Key-Flood-1';
      expect((await server.http.post('/api/auth/signup', { name: 'Pool Flood', email, password })).status).toBe(201);
      expect((await server.http.post('/api/auth/verify', { email, code: cognito.codeSentTo(email) })).status).toBe(200);
      const login = await server.http.post('/api/auth/login', { email, password });
      expect(login.status).toBe(200);
      const { forgedStatuses, legitimateStatuses } = await floodWithLegitimateCalls(
        server,
        refreshingSession(server, login.body.refresh_token),
        () => forgedToken(`${cognito.endpoint}/${pool.userPoolId}`, pool.clientId),
      );
      expect(new Set(forgedStatuses)).toEqual(new Set([401]));
      expect(legitimateStatuses).toEqual(Array(legitimateStatuses.length).fill(200));
      expect(legitimateStatuses.length).toBe(9);
    });
  });
});
