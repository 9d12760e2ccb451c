import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { DEFAULT_DELIVERY, JOB_STATUS, type CatchUpPolicy, type Delivery, type OverlapPolicy, type HttpMethod, type JobStatus, type IdentityToken, type ResponseRules, type RetryPolicy } from '@cronbeam/shared/jobs/job-types';

@Entity('jobs')
@Index('jobs_account_idx', ['accountId', 'createdAt'])
export class JobEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'account_id' })
  accountId: string;

  @Column('text')
  name: string;

  @Column('text')
  url: string;

  @Column('text', { default: 'GET' })
  method: HttpMethod;

  /** Stored sealed as text by JobsRepository (it holds credentials for the target); the entity carries the clear map. */
  @Column('text', { default: '{}' })
  headers: Record<string, string>;

  @Column('text', { default: '' })
  body: string;

  /** Exactly one of cronExpression, everySeconds and runAt is set (docs/adr/0172-schedule-forms.md). */
  @Column('text', { name: 'cron_expression', nullable: true })
  cronExpression: string | null;

  @Column('text', { name: 'time_zone', default: 'UTC' })
  timeZone: string;

  @Column('integer', { name: 'every_seconds', nullable: true })
  everySeconds: number | null;

  /** An interval's instants are anchor + k × every_seconds: starts_at, or the creation (or switch to an interval) to the second. */
  @Column('timestamptz', { name: 'schedule_anchor', nullable: true })
  scheduleAnchor: Date | null;

  @Column('timestamptz', { name: 'run_at', nullable: true })
  runAt: Date | null;

  @Column('timestamptz', { name: 'starts_at', nullable: true })
  startsAt: Date | null;

  @Column('timestamptz', { name: 'ends_at', nullable: true })
  endsAt: Date | null;

  @Column('integer', { name: 'jitter_seconds', default: 0 })
  jitterSeconds: number;

  /** The job's fixed offset within jitter_seconds (jitterOffsetMs of its owner and name). */
  @Column('integer', { name: 'jitter_offset_ms', default: 0 })
  jitterOffsetMs: number;

  @Column('text', { default: 'allow' })
  overlap: OverlapPolicy;

  @Column('text', { name: 'catch_up', default: 'latest' })
  catchUp: CatchUpPolicy;

  @Column('integer', { name: 'catch_up_window_seconds', nullable: true })
  catchUpWindowSeconds: number | null;

  @Column('jsonb', { name: 'response_rules', nullable: true })
  responseRules: ResponseRules | null;

  @Column('integer', { name: 'timeout_ms', nullable: true })
  timeoutMs: number | null;

  @Column('integer', { name: 'auto_pause_after', nullable: true })
  autoPauseAfter: number | null;

  /** With notifyOnFailure: alert after this many failed runs in a row (1: the first). */
  @Column('integer', { name: 'alert_after_failures', default: 1 })
  alertAfterFailures: number;

  /** For an https URL: alert this many days before the certificate expires (null: never). */
  @Column('integer', { name: 'certificate_alert_days', nullable: true, default: 14 })
  certificateAlertDays: number | null;

  /** The expiry of the certificate seen at the latest https run. */
  @Column('timestamptz', { name: 'certificate_expires_at', nullable: true })
  certificateExpiresAt: Date | null;

  /** After a crash, a run that may have reached its target is sent again or recorded as unknown. */
  @Column('text', { default: DEFAULT_DELIVERY })
  delivery: Delivery;

  /** Lower-case labels (shared/tags): list filters, bulk actions, maintenance windows. */
  @Column('text', { array: true, default: '{}' })
  tags: string[];
  /** How failed scheduled runs are retried; null: the plan default (DEFAULT_RETRY_POLICY). */
  @Column('jsonb', { name: 'retry_policy', nullable: true })
  retryPolicy: RetryPolicy | null;

  /** Requests carry a Cronbeam-signed JWT with this audience (null inside: the URL); null: none. The signing secrets are JobsRepository's alone. */
  @Column('jsonb', { name: 'identity_token', nullable: true })
  identityToken: IdentityToken | null;

  /** Each completed run's outcome is POSTed here; null: no callbacks. */
  @Column('text', { name: 'callback_url', nullable: true })
  callbackUrl: string | null;

  @Column('text', { default: JOB_STATUS.scheduled })
  status: JobStatus;

  @Column('boolean', { name: 'notify_on_failure', default: false })
  notifyOnFailure: boolean;

  @Column('timestamptz', { name: 'next_run_at', nullable: true })
  nextRunAt: Date | null;

  @Column('timestamptz', { name: 'last_run_at', nullable: true })
  lastRunAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
