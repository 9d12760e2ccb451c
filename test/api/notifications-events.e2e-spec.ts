import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { openEventStream } from '../support/event-stream';
import { startTestServer, type TestServer } from '../support/test-server';
import { FAST_SCHEDULER_ENV } from './scheduler-fixtures';

jest.setTimeout(60_000);

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
    const aliceStream = await openEventStream(server, alice.accessToken);
    const bobStream = await openEventStream(server, bob.accessToken);
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
