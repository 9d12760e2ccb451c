import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { concatMap, filter, type Subscription } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { AlertChannelsService } from '../alert-channels/alert-channels.service';
import { UsersService } from '../auth/users.service';
import { JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { RunsService, type ExecutionOutcome } from '../runs/runs.service';

const DAY_MS = 86_400_000;

/**
 * Certificate expiry of https jobs: every run that got an answer reports the
 * expiry of the certificate its target presented; the job keeps the latest
 * (certificate_expires_at) and its owner is told, by mail and on the job's
 * channels, once when it comes within the job's certificate_alert_days and
 * once when it has expired (a failed run checks the expiry recorded before:
 * an expired certificate fails the handshake). A renewed certificate starts afresh. The stage
 * changes in one locked statement, so two instances never both alert.
 */
@Injectable()
export class CertificateAlerts implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(CertificateAlerts.name);
  private subscription: Subscription | null = null;

  constructor(
    private readonly runs: RunsService,
    private readonly jobs: JobsService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly channels: AlertChannelsService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.subscription = this.runs.outcomes$
      .pipe(
        // A failure saw no certificate (an expired one fails the handshake): the one recorded before is checked again.
        filter((o) => Boolean(o.certificateExpiresAt) || (o.status === 'failed' && !o.willRetry)),
        concatMap((o) => this.handle(o)),
      )
      .subscribe();
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  private async handle(outcome: ExecutionOutcome): Promise<void> {
    try {
      const change = await this.jobs.recordCertificate(outcome.jobId, outcome.certificateExpiresAt ?? null);
      if (!change) return;
      const expiresAt = change.expiresAt;
      const [job, user] = await Promise.all([this.jobs.get(change.userId, outcome.jobId).catch(() => null), this.users.findById(change.userId)]);
      if (!job || !user) return;
      const host = new URL(job.url).host;
      const days = Math.max(0, Math.floor((expiresAt.getTime() - Date.now()) / DAY_MS));
      const detail =
        change.stage === 'expired'
          ? `The TLS certificate of ${host} expired at ${expiresAt.toISOString()}; requests to it fail until it is renewed.`
          : `The TLS certificate of ${host} expires at ${expiresAt.toISOString()} (in ${days} day${days === 1 ? '' : 's'}).`;
      const dashboard = `${this.config.publicUrl}/dashboard`;
      const subject =
        change.stage === 'expired' ? `Cronbeam: the certificate of job "${job.name}" has expired` : `Cronbeam: the certificate of job "${job.name}" expires soon`;
      await this.mail.send({ to: user.email, subject, text: `${detail}\n\nJob: ${job.name}\nTarget: ${job.url}\n\nLogs: ${dashboard}` });
      // Not awaited: a channel's retries must not hold up the next job's certificate.
      this.channels
        .notify(change.userId, outcome.jobId, {
          event: change.stage === 'expired' ? 'certificate_expired' : 'certificate_expiring',
          jobName: job.name,
          jobUrl: job.url,
          detail,
          at: outcome.executedAt,
        })
        .catch((error: Error) => this.logger.warn(`Certificate alert for job ${outcome.jobId} not sent to channels: ${error.message}`));
    } catch (error) {
      this.logger.warn(`Certificate expiry of job ${outcome.jobId} not recorded: ${(error as Error).message}`);
    }
  }
}
