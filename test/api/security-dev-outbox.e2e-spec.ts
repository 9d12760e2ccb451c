import { runServerProcess } from '../support/server-process';
import { startTestServer, type TestServer } from '../support/test-server';

jest.setTimeout(120_000);

/**
 * The dev outbox shows sign-up and password-reset codes. Outside production it
 * answers only callers on this machine, and a proxy on this machine connects
 * from loopback too: a request that a proxy relayed is refused, and a
 * development server whose PUBLIC_URL is another machine does not start.
 */
describe('the dev outbox behind a same-host proxy', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers a loopback caller and refuses a request relayed by a proxy on this machine', async () => {
    expect((await server.http.get('/api/dev/outbox')).status).toBe(200);
    const relayedBy: Array<Record<string, string>> = [
      { 'x-forwarded-for': '203.0.113.7' },
      { forwarded: 'for=203.0.113.7;proto=https' },
      { 'x-real-ip': '203.0.113.7' },
      { 'x-forwarded-host': 'cronbeam.example' },
      { via: '1.1 proxy' },
    ];
    for (const headers of relayedBy) {
      const relayed = await server.http.get('/api/dev/outbox', { headers });
      expect(relayed.status).toBe(404);
      expect(relayed.body).toEqual({ detail: expect.any(String) });
    }
  });

  it('development mode refuses to start with a PUBLIC_URL that is not this machine, naming the fix', async () => {
    const run = runServerProcess({ PUBLIC_URL: 'https://cronbeam.example' });
    expect(await run.exitCode()).toBe(78);
    expect(run.output()).toMatch(/PUBLIC_URL: cronbeam\.example is not this machine, but NODE_ENV is development, .*set NODE_ENV=production for a deployed server/);
  });
});
