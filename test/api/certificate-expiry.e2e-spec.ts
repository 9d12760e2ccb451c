import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Job } from '@cronbeam/shared/jobs/job-types';
import { AlertReceiver } from '../fakes/alert-receiver';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { until } from '../support/until';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

type WebhookAlert = { event: string; detail: string; job: { job_id: string } | null };

/**
 * Certificate expiry through real runs: a local HTTPS stand-in serves a
 * self-signed certificate made at test time (openssl), valid for 5 days; the
 * server trusts it as an extra CA (TARGET_CA_FILE) and reaches 127.0.0.1
 * through the private-target allowlist. Each run records the certificate's
 * expiry on the job; the alert goes out once per certificate.
 */
describe('certificate expiry', () => {
  let dir: string;
  let target: Server;
  let targetUrl: string;
  let notAfter: string;
  let server: TestServer;
  let receiver: AlertReceiver;
  let alice: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const alerts = (path: string): WebhookAlert[] => receiver.received(path).map((r) => JSON.parse(r.body));
  const get = async (jobId: string): Promise<Job> => (await server.http.get(`/api/jobs/${jobId}`, as(alice))).body;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cronbeam-cert-'));
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', cert,
      '-days', '5', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
    ], { stdio: 'ignore' });
    notAfter = new Date(new X509Certificate(readFileSync(cert)).validTo).toISOString();
    target = createServer({ key: readFileSync(key), cert: readFileSync(cert) }, (_req, res) => {
      res.writeHead(200);
      res.end('ok');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    targetUrl = `https://127.0.0.1:${(target.address() as AddressInfo).port}/hook`;
    receiver = await AlertReceiver.start();
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PRIVATE_TARGET_ALLOWLIST: '127.0.0.1', TARGET_CA_FILE: cert });
    alice = await signUpAndLogin(server);
    await setPlan(server, alice.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
    await receiver?.close();
    await new Promise((resolve) => target?.close(resolve));
    target?.closeAllConnections();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (jobId: string) => expect((await server.http.post(`/api/jobs/${jobId}/run`, undefined, as(alice))).status).toBe(200);
  /**
   * Outcomes reach the certificate rule one at a time, in order: once a marker job run after them has its
   * expiry recorded, the runs before it have been handled too (so an alert that did not come will not).
   */
  const handledSoFar = async () => {
    const marker: Job = (await server.http.post('/api/jobs', jobDefinition({ url: targetUrl, certificate_alert_days: null, cron_expression: '0 0 1 1 *' }), as(alice))).body;
    await run(marker.job_id);
    await until(() => get(marker.job_id), (j) => j.certificate_expires_at !== null);
    await server.http.delete(`/api/jobs/${marker.job_id}`, as(alice));
  };

  it('records the expiry on each run and alerts once, 5 days ahead with the default 14', async () => {
    const job: Job = (await server.http.post('/api/jobs', jobDefinition({ name: 'tls-job', url: targetUrl, cron_expression: '0 0 1 1 *' }), as(alice))).body;
    expect(job).toMatchObject({ certificate_alert_days: 14, certificate_expires_at: null });
    await server.http.post('/api/alert-channels', { name: 'cert-hook', kind: 'webhook', target: receiver.url('/cert'), job_ids: [job.job_id] }, as(alice));

    await run(job.job_id);
    expect((await until(() => get(job.job_id), (j) => j.certificate_expires_at !== null)).certificate_expires_at).toBe(notAfter);
    const [alert] = await receiver.waitFor('/cert', 1);
    expect(JSON.parse(alert!.body)).toMatchObject({ event: 'certificate_expiring', job: { job_id: job.job_id }, detail: expect.stringContaining(`expires at ${notAfter}`) });
    expect(JSON.parse(alert!.body).detail).toMatch(/\(in [45] days\)/);
    const mail = await until(
      async () => (await server.http.get('/api/dev/outbox')).body as Array<{ to: string; subject: string }>,
      (mails) => mails.some((m) => m.subject === 'Cronbeam: the certificate of job "tls-job" expires soon'),
    );
    expect(mail.filter((m) => m.subject.includes('tls-job')).map((m) => m.to)).toEqual([alice.email]);

    // The same certificate again: recorded, no second alert.
    await run(job.job_id);
    await handledSoFar();
    expect(await sql(server, `SELECT 1 FROM job_runs WHERE job_id = $1 AND state = 'done'`, [job.job_id])).toHaveLength(2);
    const stage = await sql<{ certificate_alert_stage: string }>(server, `SELECT certificate_alert_stage FROM jobs WHERE id = $1`, [job.job_id]);
    expect(stage).toEqual([{ certificate_alert_stage: 'expiring' }]);
    expect(alerts('/cert').map((a) => a.event)).toEqual(['certificate_expiring']);
    expect((await get(job.job_id)).certificate_expires_at).toBe(notAfter);
  });

  it('waits for the job’s own number of days, and sends nothing with null', async () => {
    const job: Job = (await server.http.post('/api/jobs', jobDefinition({ url: targetUrl, certificate_alert_days: 3, cron_expression: '0 0 1 1 *' }), as(alice))).body;
    const silent: Job = (await server.http.post('/api/jobs', jobDefinition({ url: targetUrl, certificate_alert_days: null, cron_expression: '0 0 1 1 *' }), as(alice))).body;
    expect(silent.certificate_alert_days).toBeNull();
    await server.http.post('/api/alert-channels', { name: 'days-hook', kind: 'webhook', target: receiver.url('/days'), job_ids: [job.job_id, silent.job_id] }, as(alice));
    await run(job.job_id);
    await run(silent.job_id);
    await until(() => get(job.job_id), (j) => j.certificate_expires_at === notAfter);
    await until(() => get(silent.job_id), (j) => j.certificate_expires_at === notAfter);
    await handledSoFar();
    expect(receiver.received('/days')).toHaveLength(0);

    // Within the new setting the next run alerts, once.
    const { job_id: _id, ...definition } = job;
    expect((await server.http.put(`/api/jobs/${job.job_id}`, { ...definition, certificate_alert_days: 7 }, as(alice))).status).toBe(200);
    await run(job.job_id);
    const [alert] = await receiver.waitFor('/days', 1);
    expect(JSON.parse(alert!.body)).toMatchObject({ event: 'certificate_expiring', job: { job_id: job.job_id } });
  });

  it('alerts once that the recorded certificate has expired when a later run gets no answer (an expired certificate fails the handshake)', async () => {
    const job: Job = (await server.http.post('/api/jobs', jobDefinition({ name: 'gone-tls', url: targetUrl, cron_expression: '0 0 1 1 *' }), as(alice))).body;
    await server.http.post('/api/alert-channels', { name: 'expired-hook', kind: 'webhook', target: receiver.url('/expired'), job_ids: [job.job_id] }, as(alice));
    await run(job.job_id);
    await receiver.waitFor('/expired', 1);
    // Time passes beyond the certificate (moved here in the database), and the target stops answering.
    const expiredAt = new Date(Date.now() - 60_000);
    await sql(server, `UPDATE jobs SET certificate_expires_at = $2 WHERE id = $1`, [job.job_id, expiredAt]);
    const closed = `https://127.0.0.1:${(target.address() as AddressInfo).port + 1}/hook`;
    const { job_id: _id, ...definition } = await get(job.job_id);
    expect((await server.http.put(`/api/jobs/${job.job_id}`, { ...definition, url: closed }, as(alice))).status).toBe(200);
    await run(job.job_id);
    await run(job.job_id);
    await handledSoFar();
    expect(alerts('/expired').map((a) => a.event)).toEqual(['certificate_expiring', 'certificate_expired']);
    expect(alerts('/expired')[1]!.detail).toContain(`expired at ${expiredAt.toISOString()}`);
  });

  it.each([0, 366, 2.5, '14'])('refuses certificate_alert_days %j with a 422 naming the field', async (value) => {
    const res = await server.http.post('/api/jobs', jobDefinition({ url: targetUrl, certificate_alert_days: value }), as(alice));
    expect(res.status).toBe(422);
    expect(res.body.detail[0]).toMatchObject({ loc: ['body', 'certificate_alert_days'], msg: 'certificate_alert_days must be a whole number from 1 to 365, or null for no certificate alerts' });
  });
});
