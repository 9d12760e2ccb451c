import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { Observable, Subject } from 'rxjs';

export type JobChangeKind = 'created' | 'updated' | 'paused' | 'resumed' | 'deleted';

/** One committed change to a job's schedule. */
export interface JobChange {
  jobId: string;
  accountId: string;
  kind: JobChangeKind;
  /** The job's next due time after the change; null when paused or deleted. */
  nextRunAt: Date | null;
  /** Set when the job paused itself: this many runs failed in a row (its auto_pause_after). */
  autoPausedAfter?: number;
}

/**
 * In-process feed of job changes, emitted only after the change has committed,
 * so the scheduler can re-arm its timer without polling (works on the embedded
 * database too, where LISTEN/NOTIFY is not available).
 */
@Injectable()
export class JobEvents implements OnModuleDestroy {
  private readonly subject = new Subject<JobChange>();
  readonly changes$: Observable<JobChange> = this.subject.asObservable();

  emit(change: JobChange): void {
    this.subject.next(change);
  }

  onModuleDestroy(): void {
    this.subject.complete();
  }
}
