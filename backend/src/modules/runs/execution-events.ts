import { Injectable } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { RunOutcome, RunTrigger } from '@cronbeam/shared/jobs/job-types';

/** One stored execution result, as alerts, the SSE stream and metrics see it. */
export interface ExecutionOutcome {
  runId: string;
  jobId: string;
  accountId: string;
  trigger: RunTrigger;
  attempt: number;
  scheduledFor: Date;
  dueAt: Date;
  executedAt: Date;
  status: Extract<RunOutcome, 'success' | 'failed'>;
  responseCode: number | null;
  durationMs: number;
  errorMessage: string | null;
  responseBody: string | null;
  /** A retry of this failure is queued: the failure episode is not decided yet. */
  willRetry: boolean;
  notifyOnFailure: boolean;
  /** The job's callback URL when the run was claimed; null: none. */
  callbackUrl: string | null;
  /** For an https job that got an answer: the expiry of the certificate its origin presented. */
  certificateExpiresAt?: Date | null;
}

/** In-process stream of execution outcomes, published after they are stored. */
@Injectable()
export class ExecutionEvents {
  private readonly subject = new Subject<ExecutionOutcome>();
  readonly outcomes$: Observable<ExecutionOutcome> = this.subject.asObservable();

  publish(outcome: ExecutionOutcome): void {
    this.subject.next(outcome);
  }
}
