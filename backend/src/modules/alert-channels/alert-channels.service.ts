import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { filter, type Subscription } from 'rxjs';
import { CALLBACK_BODY_MAX_CHARS, CALLBACK_EVENT, CALLBACK_EVENT_HEADER, type CallbackDelivery, type RunCallbackPayload } from '@cronbeam/shared/jobs/run-callbacks';
import {
  ALERT_CHANNEL_LIMITS,
  ALERT_CHANNEL_MESSAGES,
  ALERT_CHANNEL_VERIFICATION,
  ALERT_CHANNEL_VERIFY_PATH,
  type AlertChannel,
  type AlertChannelDefinition,
  type AlertDelivery,
} from '@cronbeam/shared/notifications/alert-channels';
import type { Actor } from '../audit';
import type { RequestOrigin } from '../auth';
import { AppConfig } from '../../config/app-config';
import { BackgroundWork } from '../../common/background-work';
import { ApiError } from '../../common/http/api-error';
import { DatabaseRateLimiter } from '../../common/rate-limit/database-rate-limiter';
import type { RateLimitBucket, TakenCount } from '../../common/rate-limit/rate-limit';
import { isUuid } from '../../common/validation/uuid';
import { TeamsService } from '../teams/teams.service';
import { HttpExecutor } from '../executor/http-executor.service';
import { TargetPolicy } from '../executor/target-policy.service';
import { JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { alertRequest, headline, signatureHeader, signaturesHeader, type AlertEvent } from './alert-payloads';
import { AlertChannelsRepository, type AlertChannelRow, type VerificationLink } from './alert-channels.repository';
import { RunsService, type ExecutionOutcome } from '../runs/runs.service';
import { channelVerificationMail } from './verification-mail';

/** Attempts per delivery and the waits before the second and third (the receiver may be restarting). */
export const DELIVERY_BACKOFF_MS = [1_000, 4_000];
const DELIVERY_TIMEOUT_MS = 10_000;
/** How often the queue is read for retries that fell due. */
export const DELIVERY_POLL_MS = 500;
/** A claimed delivery belongs to its instance this long: far beyond one attempt, so only a crashed instance's claims pass to another. */
const DELIVERY_LEASE_MS = 60_000;
const CLAIM_BATCH = 20;

type Outcome = { ok: boolean; responseCode: number | null; error: string | null };

/** Only the hash of a verification link's token is stored; the token has 256 random bits, so a fast hash suffices. */
function hashVerificationToken(token: string): string {
  return createHash('sha256').update(`alert-channel-verification\u0000${token}`).digest('base64url');
}

/** A channel receives alerts (and test alerts) once verified: URL channels at creation, email channels when their recipient confirms. */
function isDeliverable(channel: Pick<AlertChannelRow, 'verified_at'>): boolean {
  return channel.verified_at !== null && channel.verified_at !== undefined;
}

/**
 * An account's alert channels and the delivery of alerts to them. Channel URLs
 * are job-like targets: the target policy checks them when they are saved and
 * the executor's guarded lookup on every delivery. Each delivery is tried up
 * to three times and every attempt is logged. A delivery lives in the
 * database queue until it is delivered or out of attempts, so retries survive
 * a restart; a worker in every instance takes due retries under a lease.
 *
 * An email channel to any address but the owner's own verified one stays
 * pending until its recipient opens the link mailed to it: until then it gets
 * no alert and no test alert, so the service cannot be used to mail strangers.
 * Test alerts and verification mails are counted per channel and per account in
 * the database (one atomic upsert per count), so the limits hold under
 * concurrent requests and across instances.
 *
 * Run callbacks travel the same queue: a job's decided run (succeeded, or
 * failed with no retry left) is queued in the transaction that stores it,
 * under the run's id (so once per run), and POSTed to the job's callback URL
 * as it is when each attempt is made, signed with the job's secrets.
 */
@Injectable()
export class AlertChannelsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(AlertChannelsService.name);
  private timer: NodeJS.Timeout | null = null;
  private draining = false;
  /** Attempts under way, awaited on shutdown so none is cut off mid-way (its lease would delay the retry). */
  private readonly background = new BackgroundWork();
  private callbacks: Subscription | null = null;

  constructor(
    private readonly channels: AlertChannelsRepository,
    private readonly jobs: JobsService,
    private readonly executor: HttpExecutor,
    private readonly targets: TargetPolicy,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly teams: TeamsService,
    private readonly sendLimiter: DatabaseRateLimiter,
    private readonly runs: RunsService,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => void this.background.track(this.drain()), DELIVERY_POLL_MS);
    this.timer.unref();
    this.runs.setDecidedRunsHook((tx, outcomes) =>
      this.channels.enqueueCallbacks(tx, outcomes.map((o) => ({ runId: o.runId, jobId: o.jobId, payload: { ...callbackPayload(o) } })), DELIVERY_LEASE_MS),
    );
    // The first attempt once the run (and its queued callback) is committed; retries come from the queue.
    this.callbacks = this.runs.outcomes$
      .pipe(filter((o) => o.callbackUrl !== null && !o.willRetry))
      .subscribe((o) => void this.background.track(this.attemptCallback(o.runId, o.jobId, callbackPayload(o), 0)));
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.callbacks?.unsubscribe();
    this.callbacks = null;
    await this.background.settled();
  }

  async list(accountId: string): Promise<AlertChannel[]> {
    return (await this.channels.listOwned(accountId)).map((row) => toView(row));
  }

  /**
   * A webhook gets a signing secret, answered this once. An email channel to
   * the owner's own verified address is live at once; any other address gets
   * a verification mail and the channel stays pending until it is confirmed.
   */
  async create(actor: Actor, accountId: string, definition: AlertChannelDefinition): Promise<AlertChannel> {
    // A Telegram channel's target is a chat, not an address: its requests go to the Bot API, which the operator configures.
    if (definition.kind !== 'email' && definition.kind !== 'telegram') this.assertTarget(definition.target);
    if (definition.job_ids) {
      const own = new Set((await this.jobs.list(accountId, 'primary')).map((j) => j.job_id));
      const stranger = definition.job_ids.findIndex((id) => !own.has(id));
      if (stranger >= 0) throw ApiError.invalidField(['body', 'job_ids', stranger], ALERT_CHANNEL_MESSAGES.unknownJob);
    }
    if ((await this.channels.countOwned(accountId)) >= ALERT_CHANNEL_LIMITS.maxChannels) throw ApiError.forbidden(ALERT_CHANNEL_MESSAGES.tooMany);
    // A webhook's signing secret is made here and answered once; the other kinds' secrets are the account's own (a bot token, a routing key) and are never answered back.
    const signingSecret = definition.kind === 'webhook' ? `whsec_${randomBytes(24).toString('base64url')}` : null;
    const secret = signingSecret ?? (definition.secret || null);
    const fields = { name: definition.name, kind: definition.kind, target: definition.target, secret, job_ids: definition.job_ids };
    const owner = definition.kind === 'email' ? await this.teams.ownerOf(accountId) : null;
    if (definition.kind !== 'email' || (owner?.emailVerified && owner.email.toLowerCase() === definition.target.toLowerCase())) {
      const row = await this.channels.insert(actor, accountId, fields, 'verified');
      return { ...toView(row), ...(signingSecret ? { secret: signingSecret } : {}) };
    }
    const taken = await this.takeBudgets([this.verificationMailBudget(accountId)]);
    const { token, link } = this.newVerificationLink();
    const row = await this.channels.insert(actor, accountId, fields, link).catch(async (error: unknown) => {
      await this.giveBack(taken);
      throw error;
    });
    await this.mailVerification(row, owner?.email ?? 'unknown', token);
    return toView(row);
  }

  /** Mails a pending email channel a fresh link (the old one dies); once a minute per channel and within the account's mail budget. */
  async resendVerification(actor: Actor, accountId: string, channelId: string): Promise<AlertChannel> {
    const channel = await this.find(accountId, channelId);
    if (isDeliverable(channel)) throw ApiError.conflict(ALERT_CHANNEL_MESSAGES.alreadyVerified);
    const taken = await this.takeBudgets([this.verificationMailBudget(accountId)]);
    const { token, link } = this.newVerificationLink();
    const renewed = await this.channels.renewVerification(actor, accountId, channel.id, link, ALERT_CHANNEL_VERIFICATION.resendCooldownSeconds);
    if (!renewed) {
      await this.giveBack(taken);
      const sentAt = channel.verification_sent_at ? new Date(channel.verification_sent_at).getTime() : Date.now();
      throw ApiError.tooManyRequests(ALERT_CHANNEL_MESSAGES.resendTooSoon, (sentAt + ALERT_CHANNEL_VERIFICATION.resendCooldownSeconds * 1000 - Date.now()) / 1000);
    }
    const owner = await this.teams.ownerOf(accountId);
    await this.mailVerification(renewed, owner?.email ?? 'unknown', token);
    return toView(renewed);
  }

  /** The recipient's confirmation, from the link (no session: the recipient need not have an account). A link works once. */
  async verify(token: string, origin: RequestOrigin): Promise<{ message: string }> {
    const tokenHash = hashVerificationToken(token);
    const accountId = await this.channels.accountOfToken(tokenHash);
    // The recipient acts, who need not be a user of the account: the entry names no user or key, only the address and request.
    const channel = accountId ? await this.channels.verifyByToken({ accountId, userId: null, keyId: null, ip: origin.ip, requestId: origin.requestId }, tokenHash) : null;
    if (!channel) throw ApiError.badRequest(ALERT_CHANNEL_MESSAGES.verificationLinkInvalid);
    return { message: `Alerts to ${channel.target} are confirmed` };
  }

  private get windowSeconds(): number {
    return this.config.env.ALERT_SEND_WINDOW_SECONDS;
  }

  private verificationMailBudget(accountId: string): RateLimitBucket {
    return this.budget(`verification-mail:user:${accountId}`, this.config.env.ALERT_VERIFICATION_MAILS_PER_USER, ALERT_CHANNEL_MESSAGES.tooManyVerificationMails);
  }

  /** At most `limit` sends per ALERT_SEND_WINDOW_SECONDS under `key`; `message` is the 429's detail. */
  private budget(key: string, limit: number, message: string): RateLimitBucket {
    return { key: `alert-send:${key}`, limit, windowSeconds: this.windowSeconds, message };
  }

  private newVerificationLink(): { token: string; link: VerificationLink } {
    const token = randomBytes(32).toString('base64url');
    return { token, link: { tokenHash: hashVerificationToken(token), expiresAt: new Date(Date.now() + ALERT_CHANNEL_VERIFICATION.linkTtlSeconds * 1000) } };
  }

  /** A mail that does not go out leaves the channel pending: its owner can resend once the cool-down has passed. */
  private async mailVerification(channel: AlertChannelRow, requestedBy: string, token: string): Promise<void> {
    const link = `${this.config.publicUrl}${ALERT_CHANNEL_VERIFY_PATH}#token=${token}`;
    await this.mail
      .send(channelVerificationMail({ to: channel.target, requestedBy, link, validForHours: ALERT_CHANNEL_VERIFICATION.linkTtlSeconds / 3600 }))
      .catch((error: Error) => this.logger.warn(`Verification mail for alert channel ${channel.id} not sent: ${error.message}`));
  }

  /**
   * Counts one send against every budget, or none: a budget over its limit
   * refuses with 429 and the wait until its window ends. The counts are kept
   * in the database (they bound mail and requests sent on the account's behalf,
   * so they hold across instances); of N concurrent sends at most `limit` get through.
   */
  private takeBudgets(budgets: RateLimitBucket[]): Promise<TakenCount[]> {
    return this.sendLimiter.take(budgets);
  }

  private giveBack(taken: TakenCount[]): Promise<void> {
    return this.sendLimiter.giveBack(taken);
  }

  async remove(actor: Actor, accountId: string, channelId: string): Promise<void> {
    if (!isUuid(channelId) || !(await this.channels.deleteOwned(actor, accountId, channelId))) throw ApiError.notFound(ALERT_CHANNEL_MESSAGES.notFound);
  }

  /** The latest attempts to deliver the account's job's run callbacks (404 for another's job). */
  async callbackDeliveries(accountId: string, jobId: string): Promise<CallbackDelivery[]> {
    const job = await this.jobs.get(accountId, jobId);
    return this.channels.callbackDeliveries(job.job_id, 50);
  }

  async deliveries(accountId: string, channelId: string): Promise<AlertDelivery[]> {
    const channel = await this.find(accountId, channelId);
    return this.channels.deliveries(channel.id, 50);
  }

  /**
   * "Send test alert": answers the first attempt; a failed one is retried from
   * the queue like any alert. Refused for a pending channel, and beyond the
   * per-channel and per-user budgets.
   */
  async sendTest(accountId: string, channelId: string): Promise<AlertDelivery> {
    const channel = await this.find(accountId, channelId);
    if (!isDeliverable(channel)) throw ApiError.conflict(ALERT_CHANNEL_MESSAGES.pendingVerification);
    await this.takeBudgets([
      this.budget(`test:channel:${channel.id}`, this.config.env.ALERT_TESTS_PER_CHANNEL, ALERT_CHANNEL_MESSAGES.tooManyChannelTests),
      this.budget(`test:user:${accountId}`, this.config.env.ALERT_TESTS_PER_USER, ALERT_CHANNEL_MESSAGES.tooManyUserTests),
    ]);
    // The answer is this test's own first attempt, not the channel's latest delivery (a concurrent one may be newer).
    const first = await this.send(channel, { event: 'test', jobId: null, jobName: 'test', jobUrl: '', detail: `A test alert for the channel "${channel.name}".`, at: new Date(), dashboardUrl: this.dashboardUrl });
    return first!;
  }

  /** Sends an alert of one of the account's jobs to every channel that takes it; resolves when every first attempt has ended. */
  async notify(accountId: string, jobId: string, alert: Omit<AlertEvent, 'jobId' | 'dashboardUrl'>): Promise<void> {
    const channels = await this.channels.forJob(accountId, jobId);
    await Promise.all(channels.map((channel) => this.send(channel, { ...alert, jobId, dashboardUrl: this.dashboardUrl })));
  }

  /** A heartbeat monitor's alert, to the channels it chose (null: those taking every alert). */
  async notifyMonitor(accountId: string, monitorId: string, channelIds: string[] | null, alert: Omit<AlertEvent, 'jobId' | 'dashboardUrl' | 'source'>): Promise<void> {
    const channels = await this.channels.forMonitor(accountId, channelIds);
    await Promise.all(channels.map((channel) => this.send(channel, { ...alert, source: 'monitor', jobId: monitorId, dashboardUrl: this.dashboardUrl })));
  }

  /** The ids of the account's channels, for monitors that name some. */
  async ownedIds(accountId: string): Promise<Set<string>> {
    return new Set((await this.channels.listOwned(accountId)).map((c) => c.id));
  }

  private get dashboardUrl(): string {
    return `${this.config.publicUrl}/dashboard`;
  }

  /** Queues the delivery (leased to this instance) and makes its first attempt at once; answers that attempt as logged. */
  private async send(channel: AlertChannelRow, alert: AlertEvent): Promise<AlertDelivery | null> {
    const queueId = await this.channels.enqueueLeased(channel.id, { ...alert, at: alert.at.toISOString() }, DELIVERY_LEASE_MS);
    return this.background.track(this.attemptQueued(channel, queueId, alert, 0));
  }

  /** Takes the retries that fell due (any instance's), one batch per tick; a tick still running makes the next one wait. */
  private async drain(): Promise<void> {
    if (this.draining || !this.timer) return;
    this.draining = true;
    try {
      const due = await this.channels.claimDue(DELIVERY_LEASE_MS, CLAIM_BATCH);
      await Promise.all(
        due.map((item) =>
          this.background.track(
            item.channel === null
              ? this.attemptCallback(item.id, item.job_id, item.alert as unknown as RunCallbackPayload, item.attempts)
              : this.attemptQueued(item.channel, item.id, { ...(item.alert as unknown as AlertEvent), at: new Date(String(item.alert.at)) }, item.attempts).then(() => undefined),
          ),
        ),
      );
    } catch (error) {
      this.logger.warn(`Alert queue not read: ${(error as Error).message}`);
    } finally {
      this.draining = false;
    }
  }

  /** One attempt, logged; then the delivery leaves the queue or waits there for its next attempt. Null: dropped unsent. */
  private async attemptQueued(channel: AlertChannelRow, queueId: string, alert: AlertEvent, attemptsBefore: number): Promise<AlertDelivery | null> {
    // Whatever queued it, nothing reaches an address that has not confirmed it wants these alerts.
    if (!isDeliverable(channel)) {
      this.logger.warn(`Alert to channel ${channel.id} dropped: the channel is pending verification`);
      await this.channels.dequeue(queueId);
      return null;
    }
    const attempt = attemptsBefore + 1;
    const outcome: Outcome = await this.attempt(channel, alert).catch((error: Error) => ({ ok: false, responseCode: null, error: error.message }));
    const logged = await this.channels.logDelivery({
      channelId: channel.id,
      jobId: alert.jobId,
      event: alert.event,
      attempt,
      status: outcome.ok ? 'delivered' : 'failed',
      responseCode: outcome.responseCode,
      error: outcome.ok ? null : outcome.error,
    });
    await this.settle(queueId, attempt, outcome, `Alert to channel ${channel.id}`);
    return logged;
  }

  /** After an attempt: the delivery leaves the queue (delivered, or out of attempts) or waits there for its next one. */
  private async settle(queueId: string, attempt: number, outcome: Outcome, what: string): Promise<void> {
    const wait = outcome.ok ? undefined : DELIVERY_BACKOFF_MS[attempt - 1];
    if (wait === undefined) {
      if (!outcome.ok) this.logger.warn(`${what} not delivered after ${attempt} attempts: ${outcome.error}`);
      await this.channels.dequeue(queueId);
      return;
    }
    await this.channels.reschedule(queueId, attempt, wait);
  }

  /**
   * One attempt of a run callback (queue id = run id), logged. The job's
   * callback URL and secrets are read now: a job whose callback was removed,
   * or that was deleted, drops its pending callbacks unsent.
   */
  private async attemptCallback(queueId: string, jobId: string, payload: RunCallbackPayload, attemptsBefore: number): Promise<void> {
    try {
      const target = await this.jobs.callbackTarget(jobId);
      if (!target?.url) {
        await this.channels.dequeue(queueId);
        return;
      }
      const attempt = attemptsBefore + 1;
      const body = JSON.stringify(payload);
      const headers = { 'content-type': 'application/json', [CALLBACK_EVENT_HEADER]: CALLBACK_EVENT, ...signaturesHeader(target.signingSecrets, body, new Date()) };
      // Through the executor like every job request: the target policy on every hop, no redirect to a private address.
      const outcome: Outcome = await this.executor
        .execute(this.executor.prepare({ executionId: randomUUID(), url: target.url, method: 'POST', headers, body, timeoutMs: Math.min(DELIVERY_TIMEOUT_MS, this.executor.maxTimeoutMs) }))
        .then((result) => ({ ok: result.success, responseCode: result.responseCode, error: result.errorMessage }))
        .catch((error: Error) => ({ ok: false, responseCode: null, error: error.message }));
      await this.channels.logDelivery({
        channelId: null,
        jobId,
        runId: payload.run_id,
        event: 'callback',
        attempt,
        status: outcome.ok ? 'delivered' : 'failed',
        responseCode: outcome.responseCode,
        error: outcome.ok ? null : outcome.error,
      });
      await this.settle(queueId, attempt, outcome, `Callback of run ${payload.run_id}`);
    } catch (error) {
      // Left leased: the queue offers it again when the lease ends.
      this.logger.warn(`Callback of run ${payload.run_id} not attempted: ${(error as Error).message}`);
    }
  }

  private async attempt(channel: AlertChannelRow, alert: AlertEvent): Promise<Outcome> {
    if (channel.kind === 'email') {
      await this.mail.send({ to: channel.target, subject: headline(alert), text: `${alert.detail}\n\nLogs: ${alert.dashboardUrl}` });
      return { ok: true, responseCode: null, error: null };
    }
    const secret = this.channels.channelSecret(channel);
    const { url, headers, body } = alertRequest({ kind: channel.kind, target: channel.target, secret, telegramApiUrl: this.config.env.TELEGRAM_API_URL }, alert);
    if (channel.kind === 'webhook' && secret) Object.assign(headers, signatureHeader(secret, body, new Date()));
    // Every kind goes through the executor: the same address policy as jobs, checked on every hop of every delivery.
    const result = await this.executor.execute(
      this.executor.prepare({ executionId: randomUUID(), url, method: 'POST', headers, body, timeoutMs: Math.min(DELIVERY_TIMEOUT_MS, this.executor.maxTimeoutMs) }),
    );
    return { ok: result.success, responseCode: result.responseCode, error: result.errorMessage === null || secret === null ? result.errorMessage : result.errorMessage.replaceAll(secret, '[secret]') };
  }

  private assertTarget(url: string): void {
    try {
      this.targets.assertAllowed(url);
    } catch (error) {
      // The policy names `url`, a job's field; here the field is `target`.
      if (error instanceof ApiError) throw ApiError.invalidField(['body', 'target'], Array.isArray(error.detail) ? error.detail[0]!.msg : String(error.detail));
      throw error;
    }
  }

  private async find(accountId: string, channelId: string): Promise<AlertChannelRow> {
    const channel = isUuid(channelId) ? await this.channels.findOwned(accountId, channelId) : null;
    if (!channel) throw ApiError.notFound(ALERT_CHANNEL_MESSAGES.notFound);
    return channel;
  }
}

/** A decided run as its callback tells it. */
function callbackPayload(o: ExecutionOutcome): RunCallbackPayload {
  const body = o.responseBody;
  return {
    event: CALLBACK_EVENT,
    job_id: o.jobId,
    run_id: o.runId,
    trigger: o.trigger,
    scheduled_for: o.scheduledFor.toISOString(),
    executed_at: o.executedAt.toISOString(),
    status: o.status,
    response_code: o.responseCode,
    duration_ms: o.durationMs,
    attempt: o.attempt,
    error_message: o.errorMessage,
    response_body: body === null ? null : body.slice(0, CALLBACK_BODY_MAX_CHARS),
    response_body_truncated: body !== null && body.length > CALLBACK_BODY_MAX_CHARS,
  };
}

function toView(row: AlertChannelRow): AlertChannel {
  return {
    channel_id: row.id,
    name: row.name,
    kind: row.kind,
    target: row.target,
    job_ids: row.job_ids,
    created_at: new Date(row.created_at).toISOString(),
    status: isDeliverable(row) ? 'active' : 'pending_verification',
  };
}
