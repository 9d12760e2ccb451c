import { randomUUID } from 'node:crypto';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { openEventStream } from '../support/event-stream';
import { startTestServer, type TestServer } from '../support/test-server';
import { FAST_SCHEDULER_ENV } from './scheduler-fixtures';

jest.setTimeout(60_000);

describe('notifications: SSE resume with Last-Event-ID', () => {
  let server: TestServer;
  let target: HttpTarget;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  let jobId: string;

  const runNow = async () => {
    const run = await server.http.post(`/api/jobs/${jobId}/run`, undefined, { token: alice.accessToken });
    expect(run.status).toBe(200);
    return run.body.run_id as string;
  };

  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/flaky', (_req, res) => {
      res.statusCode = 503;
      res.end('down');
    });
    server = await startTestServer(FAST_SCHEDULER_ENV);
    alice = await signUpAndLogin(server);
    bob = await signUpAndLogin(server);
    const created = await server.http.post(
      '/api/jobs',
      { name: 'resume-job', url: `${target.url}/flaky`, cron_expression: '0 0 1 1 *' },
      { token: alice.accessToken },
    );
    expect(created.status).toBe(200);
    jobId = created.body.job_id;
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  it('replays the outcomes stored after the last id seen, in order, then goes on live', async () => {
    const first = await openEventStream(server, alice.accessToken);
    const seen = await runNow();
    const [event] = await first.waitForNamed('execution', 1);
    expect(event).toMatchObject({ id: seen, data: { run_id: seen, status: 'failed', response_code: 503, will_retry: false } });
    await first.close();

    // Two outcomes while no stream is open: a client that kept only the last id must still get both.
    const missedA = await runNow();
    target.on('/flaky', (_req, res) => res.end('ok'));
    const missedB = await runNow();

    const resumed = await openEventStream(server, alice.accessToken, seen);
    try {
      expect(resumed.res.status).toBe(200);
      const replayed = await resumed.waitForNamed('execution', 2);
      expect(replayed.map((e) => e.id)).toEqual([missedA, missedB]);
      expect(replayed.map((e) => e.data.status)).toEqual(['failed', 'success']);
      expect(replayed[1].data).toMatchObject({ run_id: missedB, job_id: jobId, trigger: 'manual', response_code: 200 });

      const live = await runNow();
      const all = await resumed.waitForNamed('execution', 3);
      expect(all.map((e) => e.id)).toEqual([missedA, missedB, live]);
    } finally {
      await resumed.close();
    }
  });

  it("replays nothing of another user's runs: Bob resuming from Alice's run id gets only his own", async () => {
    const aliceRun = await runNow();
    const stream = await openEventStream(server, bob.accessToken, aliceRun);
    const aliceStream = await openEventStream(server, alice.accessToken);
    try {
      expect(stream.res.status).toBe(200);
      const next = await runNow();
      // Once Alice's own stream has her next outcome, Bob's (opened earlier) would have had any leak too.
      expect((await aliceStream.waitForNamed('execution', 1)).map((e) => e.id)).toEqual([next]);
      expect(stream.named('execution')).toHaveLength(0);
    } finally {
      await stream.close();
      await aliceStream.close();
    }
  });

  it('an unknown id replays nothing but the stream stays live', async () => {
    const stream = await openEventStream(server, alice.accessToken, randomUUID());
    try {
      expect(stream.res.status).toBe(200);
      const live = await runNow();
      const events = await stream.waitForNamed('execution', 1);
      expect(events.map((e) => e.id)).toEqual([live]);
    } finally {
      await stream.close();
    }
  });

  it('a malformed Last-Event-ID answers 400 naming the header', async () => {
    const stream = await openEventStream(server, alice.accessToken, 'not-an-id');
    expect(stream.res.status).toBe(400);
    expect(await stream.res.json()).toEqual({ detail: 'Last-Event-ID must be the id of an event this stream sent' });
    await stream.close();
  });
});
