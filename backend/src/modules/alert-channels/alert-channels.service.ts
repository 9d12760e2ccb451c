import { randomBytes, randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ALERT_CHANNEL_LIMITS, ALERT_CHANNEL_MESSAGES, type AlertChannel, type AlertChannelDefinition, type AlertDelivery } from '@shared/notifications/alert-channels';
import { AppConfig } from '../../config/app-config';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { HttpExecutor } from '../executor/http-executor.service';
import { TargetPolicy } from '../executor/target-policy.service';
import { JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { alertBody, headline, signatureHeader, type AlertEvent } from './alert-payloads';
import { AlertChannelsRepository, type AlertChannelRow } from './alert-channels.repository';

/** Attempts per delivery and the waits before the second and third (the receiver may be restarting). */
export const DELIVERY_BACKOFF_MS = [1_000, 4_000];
const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * A user's alert channels and the delivery of alerts to them. Channel URLs
 * are job-like targets: the target policy checks them when they are saved and
 * the executor's guarded lookup on every delivery. Each delivery is tried up
 * to three times and every attempt is logged.
 */
@Injectable()
export class AlertChannelsService {
  private readonly logger = new Logger(AlertChannelsService.name);

  constructor(
    private readonly channels: AlertChannelsRepository,
    private readonly jobs: JobsService,
    private readonly executor: HttpExecutor,
    private readonly targets: TargetPolicy,
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  async list(userId: string): Promise<AlertChannel[]> {
    return (await this.channels.listOwned(userId)).map((row) => toView(row));
  }

  /** A webhook gets a signing secret, answered this once. */
  async create(userId: string, definition: AlertChannelDefinition): Promise<AlertChannel> {
    if (definition.kind !== 'email') this.assertTarget(definition.target);
    if (definition.job_ids) {
      const own = new Set((await this.jobs.list(userId)).map((j) => j.job_id));
      const stranger = definition.job_ids.findIndex((id) => !own.has(id));
      if (stranger >= 0) throw ApiError.invalidField(['body', 'job_ids', stranger], ALERT_CHANNEL_MESSAGES.unknownJob);
    }
    if ((await this.channels.countOwned(userId)) >= ALERT_CHANNEL_LIMITS.maxChannels) throw ApiError.forbidden(ALERT_CHANNEL_MESSAGES.tooMany);
    const secret = definition.kind === 'webhook' ? `whsec_${randomBytes(24).toString('base64url')}` : null;
    const row = await this.channels.insert(userId, { name: definition.name, kind: definition.kind, target: definition.target, secret, job_ids: definition.job_ids });
    return { ...toView(row), ...(secret ? { secret } : {}) };
  }

  async remove(userId: string, channelId: string): Promise<void> {
    if (!isUuid(channelId) || !(await this.channels.deleteOwned(userId, channelId))) throw ApiError.notFound(ALERT_CHANNEL_MESSAGES.notFound);
  }

  async deliveries(userId: string, channelId: string): Promise<AlertDelivery[]> {
    const channel = await this.find(userId, channelId);
    return this.channels.deliveries(channel.id, 50);
  }

  /** "Send test alert": delivers a test event now (with the usual retries) and answers the last attempt. */
  async sendTest(userId: string, channelId: string): Promise<AlertDelivery> {
    const channel = await this.find(userId, channelId);
    await this.deliver(channel, { event: 'test', jobId: null, jobName: 'test', jobUrl: '', detail: `A test alert for the channel "${channel.name}".`, at: new Date(), dashboardUrl: this.dashboardUrl });
    const [last] = await this.channels.deliveries(channel.id, 1);
    return last!;
  }

  /** Sends an alert of one of the user's jobs to every channel that takes it; resolves when every delivery has ended. */
  async notify(userId: string, jobId: string, alert: Omit<AlertEvent, 'jobId' | 'dashboardUrl'>): Promise<void> {
    const channels = await this.channels.forJob(userId, jobId);
    await Promise.all(channels.map((channel) => this.deliver(channel, { ...alert, jobId, dashboardUrl: this.dashboardUrl })));
  }

  private get dashboardUrl(): string {
    return `${this.config.publicUrl}/dashboard`;
  }

  private async deliver(channel: AlertChannelRow, alert: AlertEvent): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      const outcome = await this.attempt(channel, alert).catch((error: Error) => ({ ok: false, responseCode: null, error: error.message }));
      await this.channels.logDelivery({
        channelId: channel.id,
        jobId: alert.jobId,
        event: alert.event,
        attempt,
        status: outcome.ok ? 'delivered' : 'failed',
        responseCode: outcome.responseCode,
        error: outcome.ok ? null : outcome.error,
      });
      if (outcome.ok) return;
      const wait = DELIVERY_BACKOFF_MS[attempt - 1];
      if (wait === undefined) {
        this.logger.warn(`Alert to channel ${channel.id} not delivered after ${attempt} attempts: ${outcome.error}`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private async attempt(channel: AlertChannelRow, alert: AlertEvent): Promise<{ ok: boolean; responseCode: number | null; error: string | null }> {
    if (channel.kind === 'email') {
      await this.mail.send({ to: channel.target, subject: headline(alert), text: `${alert.detail}\n\nLogs: ${alert.dashboardUrl}` });
      return { ok: true, responseCode: null, error: null };
    }
    const body = alertBody(channel.kind, alert);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (channel.kind === 'webhook' && channel.secret) Object.assign(headers, signatureHeader(channel.secret, body, new Date()));
    const result = await this.executor.execute(
      this.executor.prepare({ executionId: randomUUID(), url: channel.target, method: 'POST', headers, body, timeoutMs: Math.min(DELIVERY_TIMEOUT_MS, this.executor.maxTimeoutMs) }),
    );
    return { ok: result.success, responseCode: result.responseCode, error: result.errorMessage };
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

  private async find(userId: string, channelId: string): Promise<AlertChannelRow> {
    const channel = isUuid(channelId) ? await this.channels.findOwned(userId, channelId) : null;
    if (!channel) throw ApiError.notFound(ALERT_CHANNEL_MESSAGES.notFound);
    return channel;
  }
}

function toView(row: AlertChannelRow): AlertChannel {
  return { channel_id: row.id, name: row.name, kind: row.kind, target: row.target, job_ids: row.job_ids, created_at: new Date(row.created_at).toISOString() };
}
