import { signUpAndLogin } from '../support/accounts';
import { openEventStream, type EventStream } from '../support/event-stream';
import { createTestDatabase } from '../support/test-database';
import { startTestServer, type TestServer } from '../support/test-server';

jest.setTimeout(60_000);

/** The cap on one account's open event streams (the server's EVENT_STREAMS_PER_USER). */
const CAP = 10;

describe('event streams end with the session and are capped per account', () => {
  let server: TestServer;
  const opened: EventStream[] = [];
  const open = async (token: string) => {
    const stream = await openEventStream(server, token);
    opened.push(stream);
    return stream;
  };

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await server?.close();
  });

  it("ends every open stream of the user when they sign out everywhere, and leaves other users' streams open", async () => {
    const alice = await signUpAndLogin(server);
    const bob = await signUpAndLogin(server);
    const aliceTabs = [await open(alice.accessToken), await open(alice.accessToken)];
    const bobTab = await open(bob.accessToken);
    for (const s of [...aliceTabs, bobTab]) expect(s.res.status).toBe(200);
    // Revocation counts in whole seconds of the token's `iat`: sign out from the next second on, as a real user would.
    const issuedAt: number = JSON.parse(Buffer.from(alice.accessToken.split('.')[1], 'base64url').toString()).iat;
    while (Math.floor(Date.now() / 1000) <= issuedAt) await new Promise((r) => setTimeout(r, 20));

    expect((await server.http.post('/api/auth/global-sign-out', {}, { token: alice.accessToken })).status).toBe(200);
    for (const tab of aliceTabs) expect(await tab.waitForEnd()).toBe(true);
    // The token is refused from now on, so the client cannot reopen it.
    expect((await open(alice.accessToken)).res.status).toBe(401);
    expect(await bobTab.waitForEnd(500)).toBe(false);
  });

  it('ends the stream when the account is deleted', async () => {
    const carol = await signUpAndLogin(server);
    const tab = await open(carol.accessToken);
    expect(tab.res.status).toBe(200);
    expect((await server.http.delete('/api/account', { token: carol.accessToken })).status).toBe(200);
    expect(await tab.waitForEnd()).toBe(true);
  });

  it(`keeps at most ${CAP} streams open per account, even when many are opened at once, and frees a slot when one closes`, async () => {
    const dave = await signUpAndLogin(server);
    const erin = await signUpAndLogin(server);
    const burst = await Promise.all(Array.from({ length: CAP * 3 }, () => open(dave.accessToken)));
    const statuses = burst.map((s) => s.res.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(CAP);
    expect(statuses.filter((s) => s === 429)).toHaveLength(CAP * 2);
    const refused = burst.find((s) => s.res.status === 429)!;
    expect(refused.res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await refused.res.json()).toEqual({ detail: expect.stringContaining(`at most ${CAP}`) });
    // The cap is per account: another user still gets a stream.
    expect((await open(erin.accessToken)).res.status).toBe(200);

    // Closing one of the open streams gives its slot back (the server notices the close shortly after).
    await burst.find((s) => s.res.status === 200)!.close();
    const deadline = Date.now() + 10_000;
    let again = await open(dave.accessToken);
    while (again.res.status === 429 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      again = await open(dave.accessToken);
    }
    expect(again.res.status).toBe(200);
    expect((await open(dave.accessToken)).res.status).toBe(429);
  });
});

// Apart from the cases above: passport keeps one strategy per name for the whole process, so the
// servers of one test process must share a database (and so a key set) while they run.
describe('event streams across instances', () => {
  it('ends a stream held by one instance when the user signs out everywhere on another, at its next heartbeat check', async () => {
    const database = await createTestDatabase(5, { migrated: true });
    const [first, second] = [await startTestServer({}, database), await startTestServer({}, database)];
    try {
      const frank = await signUpAndLogin(first);
      const tab = await openEventStream(first, frank.accessToken);
      expect(tab.res.status).toBe(200);
      const issuedAt: number = JSON.parse(Buffer.from(frank.accessToken.split('.')[1], 'base64url').toString()).iat;
      while (Math.floor(Date.now() / 1000) <= issuedAt) await new Promise((r) => setTimeout(r, 20));
      expect((await second.http.post('/api/auth/global-sign-out', {}, { token: frank.accessToken })).status).toBe(200);
      // The instance holding the stream learns it from the user row on the stream's 25 s heartbeat.
      expect(await tab.waitForEnd(40_000)).toBe(true);
      await tab.close();
    } finally {
      await first.close();
      await second.close();
      await database.drop();
    }
  });
});
