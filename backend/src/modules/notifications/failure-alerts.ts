import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { concatMap, filter, type Subscription } from 'rxjs';
import type { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { MailService } from '../mail/mail.service';
import { ExecutionEvents, type ExecutionOutcome } from '../scheduler/execution-events';
import { returnedRows } from '../scheduler/query-rows';
import { failureMail, recoveryMail, type AlertRecipient } from './failure-alert-mail';

/**
 * Failure alerts for jobs with notify_on_failure: one email when a failure
 * episode starts (a run failed and no retry is left), none for its retries or
 * further failures, and one when the job succeeds again. The episode flag
 * flips atomically in the database, so two instances never both send.
 */
@Injectable()
export class FailureAlerts implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(FailureAlerts.name);
  private subscription: Subscription | null = null;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly events: ExecutionEvents,
    private readonly mail: MailService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.subscription = this.events.outcomes$
      .pipe(
        filter((o) => o.notifyOnFailure && !o.willRetry),
        concatMap((o) => this.handle(o)),
      )
      .subscribe();
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }

  private async handle(outcome: ExecutionOutcome): Promise<void> {
    try {
      const changed = outcome.status === 'failed' ? await this.startEpisode(outcome.jobId) : await this.endEpisode(outcome.jobId);
      if (!changed) return;
      const recipient = await this.recipient(outcome.jobId);
      if (!recipient) return;
      const dashboard = `${this.config.publicUrl}/dashboard`;
      await this.mail.send(outcome.status === 'failed' ? failureMail(recipient, outcome, dashboard) : recoveryMail(recipient, outcome, dashboard));
    } catch (error) {
      this.logger.warn(`Failure alert for job ${outcome.jobId} not sent: ${(error as Error).message}`);
    }
  }

  /** True when this failure opened an episode. */
  private async startEpisode(jobId: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(
        `INSERT INTO job_alert_states (job_id, failing) SELECT $1, true WHERE EXISTS (SELECT 1 FROM jobs WHERE id = $1)
         ON CONFLICT (job_id) DO UPDATE SET failing = true, changed_at = now() WHERE job_alert_states.failing = false
         RETURNING job_id`,
        [jobId],
      ),
    );
    return rows.length > 0;
  }

  /** True when this success closed an episode. */
  private async endEpisode(jobId: string): Promise<boolean> {
    const rows = returnedRows(
      await this.db.query(`UPDATE job_alert_states SET failing = false, changed_at = now() WHERE job_id = $1 AND failing RETURNING job_id`, [jobId]),
    );
    return rows.length > 0;
  }

  private async recipient(jobId: string): Promise<AlertRecipient | null> {
    const [row]: Array<{ email: string; name: string; url: string }> = await this.db.query(
      `SELECT u.email, j.name, j.url FROM jobs j JOIN users u ON u.id = j.user_id WHERE j.id = $1`,
      [jobId],
    );
    return row ? { email: row.email, jobName: row.name, jobUrl: row.url } : null;
  }
}
