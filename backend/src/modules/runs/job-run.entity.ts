import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { RUN_STATE, type RunOutcome, type RunState, type RunTrigger } from '@cronbeam/shared/jobs/job-types';

/** One execution (or skipped/missed due time) of a job: the scheduler's queue entry and the job's log line. */
@Entity('job_runs')
export class JobRunEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'job_id' })
  jobId: string;

  @Column('uuid', { name: 'account_id' })
  accountId: string;

  @Column('text')
  trigger: RunTrigger;

  /** The cron instant this run belongs to (for retries, the original one). */
  @Column('timestamptz', { name: 'scheduled_for' })
  scheduledFor: Date;

  @Column('integer', { default: 1 })
  attempt: number;

  /** When the run should execute: scheduled_for, or later for a retry's backoff. */
  @Column('timestamptz', { name: 'due_at' })
  dueAt: Date;

  @Column('text', { default: RUN_STATE.queued })
  state: RunState;

  @Column('text', { nullable: true })
  status: RunOutcome | null;

  @Column('text', { name: 'lease_owner', nullable: true })
  leaseOwner: string | null;

  @Column('timestamptz', { name: 'lease_expires_at', nullable: true })
  leaseExpiresAt: Date | null;

  @Column('timestamptz', { name: 'executed_at', nullable: true })
  executedAt: Date | null;

  @Column('timestamptz', { name: 'finished_at', nullable: true })
  finishedAt: Date | null;

  @Column('integer', { name: 'response_code', nullable: true })
  responseCode: number | null;

  @Column('integer', { name: 'duration_ms', nullable: true })
  durationMs: number | null;

  @Column('text', { name: 'error_message', nullable: true })
  errorMessage: string | null;

  @Column('text', { name: 'response_body', nullable: true })
  responseBody: string | null;

  /** Sent again after its instance died while it may have been on the wire. */
  @Column('boolean', { name: 'possible_duplicate', default: false })
  possibleDuplicate: boolean;

  @Column('text', { name: 'skip_reason', nullable: true })
  skipReason: string | null;

  /** Why the run's failure alerted no one (a maintenance window muted it); null otherwise. */
  @Column('text', { name: 'alert_note', nullable: true })
  alertNote: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
