import { randomBytes } from 'node:crypto';
import { ALERT_CHANNEL_MESSAGES } from '@cronbeam/shared/notifications/alert-channels';
import { AlertReceiver } from '../fakes/alert-receiver';
import { HttpTarget } from '../fakes/http-target';
import { codeIn, SmtpListener, type ReceivedMail } from '../fakes/smtp-listener';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, sql } from './jobs-fixtures';

jest.setTimeout(90_000);

const TESTS_PER_CHANNEL = 5;
const TESTS_PER_USER = 8;
const VERIFICATION_MAILS_PER_USER = 3;
const PARALLEL = 30;

interface Account {
  email: string;
  token: string;
}

/**
 * Alert channels cannot be used to mail or call strangers: an email channel
 * to someone else's address receives nothing (alerts or test alerts) until its
 * recipient opens the mailed link, which works once; test alerts and
 * verification mails are capped per channel and per account, and the caps
 * hold under parallel requests. Mails are counted at a real SMTP listener.
 */
describe('security: alert channel verification and test limits', () => {
  let server: TestServer;
  let smtp: SmtpListener;
  let receiver: AlertReceiver;
  let target: HttpTarget;

  beforeAll(async () => {
    smtp = await new SmtpListener().start();
    receiver = await AlertReceiver.start();
    target = await HttpTarget.start();
    target.on('/broken', (_req, res) => {
      res.writeHead(500);
      res.end('boom');
    });
    server = await startTestServer({
      SMTP_URL: smtp.url,
      PRIVATE_TARGET_ALLOWLIST: '127.0.0.1',
      ALERT_TESTS_PER_CHANNEL: String(TESTS_PER_CHANNEL),
      ALERT_TESTS_PER_USER: String(TESTS_PER_USER),
      ALERT_VERIFICATION_MAILS_PER_USER: String(VERIFICATION_MAILS_PER_USER),
    });
  });

  afterAll(async () => {
    await server?.close();
    await smtp?.stop();
    await receiver?.close();
    await target?.close();
  });

  /** A verified, signed-in account, its sign-up code read from the SMTP listener. */
  async function signUp(): Promise<Account> {
    const email = `owner-${randomBytes(6).toString('hex')}@example.test`;
    const password = `Pw-${randomBytes(9).toString('base64url')}`;
    const since = smtp.mails.length;
    expect((await server.http.post('/api/auth/signup', { name: 'Owner', email, password })).status).toBe(201);
    const code = codeIn(await smtp.waitForMail(email, since));
    expect((await server.http.post('/api/auth/verify', { email, code })).status).toBe(200);
    const login = await server.http.post('/api/auth/login', { email, password });
    expect(login.status).toBe(200);
    return { email, token: login.body.access_token };
  }

  const stranger = () => `stranger-${randomBytes(6).toString('hex')}@example.test`;
  const mailsTo = (address: string): ReceivedMail[] => smtp.mails.filter((m) => m.to.some((to) => to.toLowerCase() === address.toLowerCase()));
  const linkToken = (mail: ReceivedMail) => {
    const token = mail.body.match(/\/auth\/alert-channel#token=([A-Za-z0-9_-]+)/)?.[1];
    if (!token) throw new Error(`no verification link in: ${mail.body}`);
    return token;
  };
  const createChannel = (who: Account, body: Record<string, unknown>) => server.http.post('/api/alert-channels', body, { token: who.token });
  const sendTest = (who: Account, channelId: string) => server.http.post(`/api/alert-channels/${channelId}/test`, undefined, { token: who.token });
  const confirm = (token: string) => server.http.post('/api/alert-channel-verifications', { token });
  const channelStatus = async (who: Account, channelId: string) =>
    ((await server.http.get('/api/alert-channels', { token: who.token })).body as Array<{ channel_id: string; status: string }>).find((c) => c.channel_id === channelId)?.status;

  /** Opens a failure episode of a new job of the account; resolves once the sentinel webhook channel has its alert. */
  async function failJob(who: Account, sentinelPath: string): Promise<void> {
    const before = receiver.received(sentinelPath).length;
    const job = await server.http.post('/api/jobs', jobDefinition({ name: 'nightly', url: `${target.url}/broken`, notify_on_failure: true }), { token: who.token });
    expect(job.status).toBe(200);
    await server.http.post(`/api/jobs/${job.body.job_id}/run`, undefined, { token: who.token });
    await receiver.waitFor(sentinelPath, before + 1);
  }

  it('keeps an email channel to another address pending: one verification mail without the channel name, no test alert, no job alert', async () => {
    const alice = await signUp();
    const address = stranger();
    const spamName = 'CHEAP PILLS at spam.example';
    const created = await createChannel(alice, { name: spamName, kind: 'email', target: address });
    expect(created.status).toBe(200);
    expect(created.body.status).toBe('pending_verification');

    const verification = await smtp.waitForMail(address);
    expect(verification.raw).toContain('Subject: Confirm Cronbeam alerts to this address');
    expect(verification.body).toContain(alice.email);
    expect(verification.raw).not.toContain('PILLS');
    expect(verification.raw).not.toContain('spam.example');

    const test = await sendTest(alice, created.body.channel_id);
    expect(test.status).toBe(409);
    expect(test.body).toEqual({ detail: ALERT_CHANNEL_MESSAGES.pendingVerification });

    // A job failure alerts the account's channels: the webhook sentinel gets it, the pending address does not.
    expect((await createChannel(alice, { name: 'sentinel', kind: 'webhook', target: receiver.url('/sentinel-a') })).status).toBe(200);
    await failJob(alice, '/sentinel-a');
    const log = await server.http.get(`/api/alert-channels/${created.body.channel_id}/deliveries`, { token: alice.token });
    expect(log.body.deliveries).toEqual([]);
    expect((await sql(server, `SELECT 1 FROM alert_queue q JOIN alert_channels c ON c.id = q.channel_id WHERE c.target = $1`, [address])).length).toBe(0);
    expect(mailsTo(address)).toHaveLength(1);
  });

  it('verifies a channel by its link once; then it gets test alerts and job alerts', async () => {
    const alice = await signUp();
    const address = stranger();
    const channel = (await createChannel(alice, { name: 'ops mailbox', kind: 'email', target: address })).body;
    const token = linkToken(await smtp.waitForMail(address));

    const first = await confirm(token);
    expect(first.status).toBe(200);
    expect(await channelStatus(alice, channel.channel_id)).toBe('active');
    const again = await confirm(token);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ detail: ALERT_CHANNEL_MESSAGES.verificationLinkInvalid });
    expect((await confirm('not-a-token')).status).toBe(400);
    expect((await server.http.post('/api/alert-channel-verifications', {})).status).toBe(422);

    const test = await sendTest(alice, channel.channel_id);
    expect(test.status).toBe(200);
    expect(test.body).toMatchObject({ event: 'test', status: 'delivered' });
    expect(mailsTo(address)).toHaveLength(2);

    expect((await createChannel(alice, { name: 'sentinel', kind: 'webhook', target: receiver.url('/sentinel-b') })).status).toBe(200);
    await failJob(alice, '/sentinel-b');
    const alert = await smtp.waitForMail(address, smtp.mails.indexOf(mailsTo(address)[1]!) + 1);
    expect(alert.raw).toContain('Subject: =?UTF-8?Q?Cronbeam=3A_job_=22nightly=22_failed?=');
    expect(alert.body).toContain('Failed after 1 attempt(s)');
  });

  it('refuses an expired link; resending waits a cool-down, then mails a new link and kills the old one; only the owner can resend', async () => {
    const alice = await signUp();
    const bob = await signUp();
    const address = stranger();
    const channel = (await createChannel(alice, { name: 'later', kind: 'email', target: address })).body;
    const oldToken = linkToken(await smtp.waitForMail(address));
    const resend = () => server.http.post(`/api/alert-channels/${channel.channel_id}/resend-verification`, undefined, { token: alice.token });

    const tooSoon = await resend();
    expect(tooSoon.status).toBe(429);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(tooSoon.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    expect(tooSoon.body).toEqual({ detail: ALERT_CHANNEL_MESSAGES.resendTooSoon });
    expect(mailsTo(address)).toHaveLength(1);
    expect((await server.http.post(`/api/alert-channels/${channel.channel_id}/resend-verification`, undefined, { token: bob.token })).status).toBe(404);

    await sql(server, `UPDATE alert_channels SET verification_sent_at = now() - interval '2 minutes' WHERE id = $1`, [channel.channel_id]);
    const resent = await resend();
    expect(resent.status).toBe(200);
    expect(resent.body.status).toBe('pending_verification');
    const newToken = linkToken(await smtp.waitForMail(address, smtp.mails.indexOf(mailsTo(address)[0]!) + 1));
    expect(newToken).not.toBe(oldToken);
    expect((await confirm(oldToken)).status).toBe(400);

    await sql(server, `UPDATE alert_channels SET verification_expires_at = now() - interval '1 second' WHERE id = $1`, [channel.channel_id]);
    expect((await confirm(newToken)).status).toBe(400);
    expect(await channelStatus(alice, channel.channel_id)).toBe('pending_verification');
    await sql(server, `UPDATE alert_channels SET verification_expires_at = now() + interval '1 hour' WHERE id = $1`, [channel.channel_id]);
    expect((await confirm(newToken)).status).toBe(200);
    expect((await resend()).status).toBe(409);
  });

  it('an email channel to the account’s own address is active at once: no verification mail', async () => {
    const alice = await signUp();
    const before = mailsTo(alice.email).length;
    const created = await createChannel(alice, { name: 'me', kind: 'email', target: alice.email.toUpperCase() });
    expect(created.body.status).toBe('active');
    expect((await sendTest(alice, created.body.channel_id)).status).toBe(200);
    expect(mailsTo(alice.email)).toHaveLength(before + 1);
  });

  it(`sends at most ${TESTS_PER_CHANNEL} of ${PARALLEL} parallel test alerts to one channel, and answers the rest 429 with Retry-After`, async () => {
    const alice = await signUp();
    const channel = (await createChannel(alice, { name: 'own inbox', kind: 'email', target: alice.email })).body;
    const before = mailsTo(alice.email).length;
    const answers = await Promise.all(Array.from({ length: PARALLEL }, () => sendTest(alice, channel.channel_id)));
    const sent = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(sent).toHaveLength(TESTS_PER_CHANNEL);
    expect(refused).toHaveLength(PARALLEL - TESTS_PER_CHANNEL);
    // Each accepted test answers its own delivery.
    expect(new Set(sent.map((a) => a.body.delivery_id)).size).toBe(TESTS_PER_CHANNEL);
    for (const answer of refused) {
      expect(answer.body).toEqual({ detail: ALERT_CHANNEL_MESSAGES.tooManyChannelTests });
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Every accepted test answered after its mail went out: the count at the listener is final.
    expect(mailsTo(alice.email)).toHaveLength(before + TESTS_PER_CHANNEL);
  });

  it(`caps an account at ${TESTS_PER_USER} test alerts across its webhook, Slack and Discord channels, in parallel`, async () => {
    const alice = await signUp();
    const paths = ['/cap-hook', '/cap-slack', '/cap-discord'];
    const kinds = ['webhook', 'slack', 'discord'];
    const channels = await Promise.all(paths.map(async (path, i) => (await createChannel(alice, { name: kinds[i], kind: kinds[i], target: receiver.url(path) })).body));
    const answers = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => sendTest(alice, channels[i % channels.length].channel_id)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(TESTS_PER_USER);
    expect(answers.every((a) => a.status === 200 || a.status === 429)).toBe(true);
    const requests = paths.reduce((n, path) => n + receiver.received(path).length, 0);
    expect(requests).toBe(TESTS_PER_USER);
    for (const path of paths) expect(receiver.received(path).length).toBeLessThanOrEqual(TESTS_PER_CHANNEL);
  });

  it(`mails at most ${VERIFICATION_MAILS_PER_USER} verification links per account when channels are created in parallel`, async () => {
    const alice = await signUp();
    const addresses = Array.from({ length: 8 }, stranger);
    const answers = await Promise.all(addresses.map((address) => createChannel(alice, { name: 'x', kind: 'email', target: address })));
    const created = answers.filter((a) => a.status === 200);
    const refused = answers.filter((a) => a.status === 429);
    expect(created).toHaveLength(VERIFICATION_MAILS_PER_USER);
    expect(refused).toHaveLength(addresses.length - VERIFICATION_MAILS_PER_USER);
    expect(refused[0]!.body).toEqual({ detail: ALERT_CHANNEL_MESSAGES.tooManyVerificationMails });
    expect((await server.http.get('/api/alert-channels', { token: alice.token })).body).toHaveLength(VERIFICATION_MAILS_PER_USER);
    await Promise.all(created.map((c) => smtp.waitForMail(c.body.target)));
    expect(addresses.reduce((n, address) => n + mailsTo(address).length, 0)).toBe(VERIFICATION_MAILS_PER_USER);
  });
});
