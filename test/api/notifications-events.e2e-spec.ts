import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { FAST_SCHEDULER_ENV } from './scheduler-fixtures';

jest.setTimeout(60_000);

/** Reads server-sent events from GET /api/events until `count` `execution` events arrived. */
async function openStream(server: TestServer, account: SignedInAccount) {
  const abort = new AbortController();
  const res = await fetch(`${server.baseUrl}/api/events`, { headers: { authorization: `Bearer ${account.accessToken}` }, signal: abort.signal });
  const events: Array<{ event: string; data: any }> = [];
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const pump = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (data) events.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    res,
    events,
    close: async () => {
      abort.abort();
      await pump;
    },
  };
}

describe('notifications: SSE stream of execution outcomes', () => {
  let server: TestServer;
  let target: HttpTarget;
  let alice: SignedInAccount;
  let bob: SignedInAccount;

  beforeAll(async () => {
    target = await HttpTarget.start();
    server = await startTestServer(FAST_SCHEDULER_ENV);
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('requires a bearer token', async () => {
    expect((await server.http.get('/api/events')).status).toBe(401);
  });

  it("pushes each execution of the caller's jobs, and only theirs", async () => {
    const aliceStream = await openStream(server, alice);
    const bobStream = await openStream(server, bob);
    try {
      expect(aliceStream.res.status).toBe(200);
      expect(aliceStream.res.headers.get('content-type')).toContain('text/event-stream');
      const created = await server.http.post(
        '/api/jobs',
        { name: 'sse-job', url: `${target.url}/sse`, cron_expression: '0 0 1 1 *' },
        { token: alice.accessToken },
      );
      const run = await server.http.post(`/api/jobs/${created.body.job_id}/run`, undefined, { token: alice.accessToken });
      expect(run.status).toBe(200);
      const deadline = Date.now() + 5_000;
      while (!aliceStream.events.some((e) => e.event === 'execution') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const event = aliceStream.events.find((e) => e.event === 'execution');
      expect(event?.data).toMatchObject({ run_id: run.body.run_id, job_id: created.body.job_id, trigger: 'manual', status: 'success', response_code: 200, will_retry: false });
      // Bob's own later execution reaches his stream after anything published before it: had Alice's
      // event been sent to him, it would come first.
      const bobJob = await server.http.post('/api/jobs', { name: 'sse-bob', url: `${target.url}/sse`, cron_expression: '0 0 1 1 *' }, { token: bob.accessToken });
      const bobRun = await server.http.post(`/api/jobs/${bobJob.body.job_id}/run`, undefined, { token: bob.accessToken });
      const bobDeadline = Date.now() + 10_000;
      const ownEvent = () => bobStream.events.findIndex((e) => e.event === 'execution' && e.data.run_id === bobRun.body.run_id);
      while (ownEvent() < 0 && Date.now() < bobDeadline) await new Promise((r) => setTimeout(r, 20));
      expect(ownEvent()).toBeGreaterThanOrEqual(0);
      expect(bobStream.events.slice(0, ownEvent()).filter((e) => e.event === 'execution')).toHaveLength(0);
    } finally {
      await aliceStream.close();
      await bobStream.close();
    }
  });
});
