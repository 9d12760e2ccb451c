import type { Subscription } from 'rxjs';
import { WakeChannel, type WakeMessage } from '../../backend/src/modules/scheduler/wake-channel';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually } from './scheduler-fixtures';

/**
 * Which job changes wake the schedulers of every instance (a notification on
 * PostgreSQL, an in-process signal on the embedded database, then claim
 * queries on each instance): only those due within the safety poll plus the
 * look-ahead. A job due later is found by the next regular claim, so its
 * creation costs no wake-up. The messages are read off the app's own wake
 * channel, which every scheduler of the process listens to on both databases.
 */
describe('scheduler wake-ups: only for jobs due within the poll and look-ahead', () => {
  let server: TestServer;
  let account: SignedInAccount;
  let subscription: Subscription;
  const heard: WakeMessage[] = [];

  beforeAll(async () => {
    // A one-minute safety poll: an every-minute job is always due within the window, a yearly one never.
    server = await startTestServer({ SCHEDULER_POLL_INTERVAL_MS: '60000', SCHEDULER_LOOKAHEAD_MS: '1000' });
    account = await signUpAndLogin(server);
    subscription = server.app.get(WakeChannel).messages$.subscribe((message) => heard.push(message));
  });
  afterAll(async () => {
    subscription?.unsubscribe();
    await server?.close();
  });

  const create = async (name: string, cron: string): Promise<string> => {
    const res = await server.http.post('/api/jobs', { name, url: 'https://example.com/hook', cron_expression: cron }, { token: account.accessToken });
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: expect.objectContaining({ name }) });
    return res.body.job_id;
  };
  /** Pausing always tells the instances to withdraw the job's claimed runs: a message that marks a point in the channel. */
  const pauseAndHearIt = async (jobId: string): Promise<WakeMessage[]> => {
    expect((await server.http.post(`/api/jobs/${jobId}/pause`, {}, { token: account.accessToken })).status).toBe(200);
    await eventually(async () => heard.some((m) => m.kind === 'withdraw' && m.jobId === jobId), 10_000, `the withdrawal of ${jobId}`);
    return heard.splice(0, heard.length);
  };

  it('sends no wake-up for a job first due long after the window, and one for a job due within it', async () => {
    const yearly = await create('yearly', '0 0 1 1 *');
    // Messages arrive in the order they were sent: anything the creation sent comes before the pause's.
    expect(await pauseAndHearIt(yearly)).toEqual([{ kind: 'withdraw', jobId: yearly }]);

    const everyMinute = await create('every-minute', '* * * * *');
    expect(await pauseAndHearIt(everyMinute)).toEqual([{ kind: 'due-changed' }, { kind: 'withdraw', jobId: everyMinute }]);
  });
});
