import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { concatMap, filter, type Subscription } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { AlertChannelsService } from '../alert-channels/alert-channels.service';
import { TeamsService } from '../teams/teams.service';
import { JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { RunsService, type ExecutionOutcome } from '../runs/runs.service';

const DAY_MS = 86_400_000;
/**
 * A job whose run presents the certificate this instance recorded for it less
 * than this long ago is not checked in the database again: https runs are
 * most runs, and a statement each would double the database work of a burst.
 * A stage change (N days before, at expiry) is seen within this; a job's own
 * change on this instance (new days, new URL) forgets it at once.
 */
const RECHECK_MS = 10 * 60_000;
/** Jobs remembered at most (the oldest is forgotten first). */
const REMEMBERED_JOBS = 100_000;

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
  /** The certificate expiry (ms) last recorded per job by this instance, and when. */
  private readonly recorded = new Map<string, { expiry: number; at: number }>();

  constructor(
    private readonly runs: RunsService,
    private readonly jobs: JobsService,
    private readonly teams: TeamsService,
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
    this.subscription.add(this.jobs.changes$.subscribe((change) => this.recorded.delete(change.jobId)));
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  private remember(jobId: string, expiry: number): void {
    this.recorded.delete(jobId);
    if (this.recorded.size >= REMEMBERED_JOBS) this.recorded.delete(this.recorded.keys().next().value!);
    this.recorded.set(jobId, { expiry, at: Date.now() });
  }

  private async handle(outcome: ExecutionOutcome): Promise<void> {
    const seen = outcome.certificateExpiresAt?.getTime() ?? null;
    const last = this.recorded.get(outcome.jobId);
    if (seen !== null && last?.expiry === seen && Date.now() - last.at < RECHECK_MS) return;
    try {
      const change = await this.jobs.recordCertificate(outcome.jobId, outcome.certificateExpiresAt ?? null);
      if (seen !== null) this.remember(outcome.jobId, seen);
      if (!change) return;
      const expiresAt = change.expiresAt;
      const [job, user] = await Promise.all([this.jobs.get(change.accountId, outcome.jobId).catch(() => null), this.teams.ownerOf(change.accountId)]);
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
        .notify(change.accountId, outcome.jobId, {
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
