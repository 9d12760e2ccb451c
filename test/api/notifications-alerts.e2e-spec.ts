import { HttpTarget } from '../fakes/http-target';
import { SmtpListener } from '../fakes/smtp-listener';
import { startTestServer, type TestServer } from '../support/test-server';
import { eventually, FAST_SCHEDULER_ENV, SchedulerFixtures } from './scheduler-fixtures';

jest.setTimeout(60_000);

describe('notifications: failure alert emails, once per episode', () => {
  let server: TestServer;
  let target: HttpTarget;
  let smtp: SmtpListener;
  let db: SchedulerFixtures;

  beforeAll(async () => {
    target = await HttpTarget.start();
    smtp = await new SmtpListener().start();
    server = await startTestServer({ ...FAST_SCHEDULER_ENV, SMTP_URL: smtp.url });
    db = await SchedulerFixtures.connect(server.database.url);
  });

  afterAll(async () => {
    await db?.close();
    await server?.close();
    await smtp?.stop();
    await target?.close();
  });

  const mailsTo = (email: string) => smtp.mails.filter((m) => m.to.includes(email));
  const fireSoon = (jobId: string) => db.query(`UPDATE jobs SET next_run_at = now() + interval '150 milliseconds' WHERE id = $1`, [jobId]);
  const doneRuns = async (jobId: string) => (await db.runs(jobId)).filter((r) => r.state === 'done');

  /**
   * Waits until the alert sender has handled every outcome stored so far. It
   * handles outcomes one at a time, in the order they are stored, so once the
   * mail for a later sentinel failure (another user's job) has arrived, no
   * mail for an earlier outcome can still be on its way.
   */
  async function alertsPassed(): Promise<void> {
    target.on('/sentinel-gone', (_req, res) => {
      res.writeHead(404);
      res.end();
    });
    const userId = await db.user('pro');
    const [{ email }] = await db.query(`SELECT email FROM users WHERE id = $1`, [userId]);
    const jobId = await db.job(userId, { url: `${target.url}/sentinel-gone`, notifyOnFailure: true, nextRunAt: new Date(Date.now() + 150) });
    await smtp.waitForMail(email, 0, 30_000);
    await db.query(`DELETE FROM jobs WHERE id = $1`, [jobId]);
  }

  it('sends one failure email after the retries are exhausted, one recovery email, and a new one for the next episode', async () => {
    const userId = await db.user('pro');
    const [{ email }] = await db.query(`SELECT email FROM users WHERE id = $1`, [userId]);
    let healthy = false;
    target.on('/alerting', (_req, res) => {
      res.writeHead(healthy ? 200 : 500);
      res.end(healthy ? 'ok' : 'boom');
    });
    const jobId = await db.job(userId, { url: `${target.url}/alerting`, notifyOnFailure: true, nextRunAt: new Date(Date.now() + 150) });

    // Episode 1: four attempts (first + 3 retries), one email.
    await eventually(async () => (await doneRuns(jobId)).length === 4, 10_000, 'four attempts');
    const failure = await smtp.waitForMail(email);
    expect(failure.raw).toMatch(/Subject: .*Cronbeam/);
    expect(failure.body).toContain('failed after 4 attempts');
    expect(failure.body).toContain('HTTP 500: the target answered with a server error');
    // Another failed run in the same episode sends nothing.
    await fireSoon(jobId);
    await eventually(async () => (await doneRuns(jobId)).length === 8, 10_000, 'eight attempts');
    await alertsPassed();
    expect(mailsTo(email)).toHaveLength(1);

    // Recovery.
    healthy = true;
    await fireSoon(jobId);
    const recovery = await smtp.waitForMail(email, smtp.mails.indexOf(failure) + 1);
    expect(recovery.body).toContain('succeeded again');
    // A success while healthy sends nothing more.
    await fireSoon(jobId);
    await eventually(async () => (await doneRuns(jobId)).length === 10, 10_000, 'ten runs');
    await alertsPassed();
    expect(mailsTo(email)).toHaveLength(2);

    // A new episode gets a new email.
    healthy = false;
    await fireSoon(jobId);
    await eventually(async () => mailsTo(email).length === 3, 10_000, 'third email');
    expect(mailsTo(email)[2].body).toContain('failed after 4 attempts');
  });

  it('sends nothing for a job without notify_on_failure', async () => {
    const userId = await db.user('pro');
    const [{ email }] = await db.query(`SELECT email FROM users WHERE id = $1`, [userId]);
    target.on('/quiet', (_req, res) => {
      res.writeHead(404);
      res.end();
    });
    const jobId = await db.job(userId, { url: `${target.url}/quiet`, nextRunAt: new Date(Date.now() + 150) });
    await eventually(async () => (await doneRuns(jobId)).length === 1);
    await alertsPassed();
    expect(mailsTo(email)).toHaveLength(0);
  });
});
