import { monitorEventLoopDelay } from 'node:perf_hooks';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually } from './scheduler-fixtures';

jest.setTimeout(120_000);

/** Node refuses request heads over 16 KB (431); the hostile inputs stay just under, where a slow pattern hurts most. */
const QUERY_BYTES = 15_500;
const repeatTo = (unit: string, bytes: number) => unit.repeat(Math.floor(bytes / unit.length));

/**
 * Every request line is logged, scrubbed of secrets, and the scrubber once
 * backtracked cubically on repeated words: one 7 KB query held the event
 * loop for 14 s. The server shares this process's event loop, so its
 * blocking is measured here directly: the longest stall while hostile
 * requests are served, and how long a concurrent /api/ping waits.
 */
describe('hostile request lines and headers are handled in linear time', () => {
  let server: TestServer;
  let alice: SignedInAccount;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await signUpAndLogin(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 16 KB hostile queries and headers at once while /api/ping stays prompt', async () => {
    const hostile: Array<[string, Record<string, string>]> = [
      [`/api/jobs?q=${repeatTo('codecode-', QUERY_BYTES)}`, {}],
      [`/api/jobs?${repeatTo('token-', QUERY_BYTES)}`, {}],
      [`/ping/${'a'.repeat(20)}?${repeatTo('eyJ-', QUERY_BYTES)}`, {}],
      [`/api/monitors?x=${repeatTo('a://b:c', QUERY_BYTES)}`, {}],
      [
        '/api/jobs?page=1',
        {
          authorization: `Bearer ${repeatTo('eyJ-', 3_000)}`,
          cookie: `idToken=${repeatTo('eyJ-', 3_000)}`,
          'user-agent': repeatTo('codecode-', 3_000),
          'x-request-id': repeatTo('token-', 3_000),
          referer: `https://a.example/?${repeatTo('password-', 2_500)}`,
        },
      ],
    ];
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const pingLatencies: number[] = [];
    const pings = (async () => {
      for (let i = 0; i < 5; i += 1) {
        const started = performance.now();
        expect((await server.http.get('/api/ping')).status).toBe(200);
        pingLatencies.push(performance.now() - started);
      }
    })();
    const answers = await Promise.all(hostile.map(([path, headers]) => server.http.get(path, { headers })));
    await pings;
    loop.disable();

    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.status).not.toBe(431);
      expect(answer.body).toHaveProperty('detail');
    }
    // The scrubber did see them: each request line was logged (when its response closed).
    const longLines = () => server.logs.entries().filter((e) => e.msg === 'request completed' && String((e.req as { url: string }).url).length > QUERY_BYTES - 100);
    await eventually(async () => longLines().length === 4, 10_000, 'the hostile request lines logged');
    // Linear work on 16 KB takes microseconds; the bounds leave room for a loaded 2-core machine and GC, the old scrubber stalled for minutes.
    expect(loop.max / 1e6).toBeLessThan(1_000);
    expect(Math.max(...pingLatencies)).toBeLessThan(2_000);
  });

  it('keeps heartbeat ping tokens out of the request log', async () => {
    const created = await server.http.post('/api/monitors', { name: 'nightly-backup', period_seconds: 3600 }, { token: alice.accessToken });
    expect(created.status).toBe(200);
    const pingPath = new URL(created.body.ping_url as string).pathname;
    const token = pingPath.split('/').pop()!;
    expect(token.length).toBeGreaterThanOrEqual(20);

    expect((await server.http.get(pingPath)).status).toBe(200);
    expect((await server.http.post(`${pingPath}/fail`, 'exit 1', { headers: { 'content-type': 'text/plain' } })).status).toBe(200);
    expect((await server.http.get(`${pingPath}/start?rid=1`)).status).toBe(200);

    // Each line is written when its response closes: wait for all three.
    const pingLines = () =>
      server.logs
        .entries()
        .filter((e) => e.msg === 'request completed' && String((e.req as { url: string }).url).startsWith('/ping/[REDACTED]'))
        .map((e) => (e.req as { url: string }).url);
    const expected = ['/ping/[REDACTED]', '/ping/[REDACTED]/fail', '/ping/[REDACTED]/start?rid=1'];
    await eventually(async () => expected.every((url) => pingLines().includes(url)), 10_000, 'the pings logged');
    expect(server.logs.text()).not.toContain(token);
  });
});
