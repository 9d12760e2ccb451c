import { Injectable, Logger } from '@nestjs/common';
import { Subject, type Observable } from 'rxjs';
import type { Queryable } from '../../common/database/transaction';
import { RunsService } from '../runs/runs.service';
import { SchedulerInstancesRepository, type StaleInstanceRow } from './scheduler-instances.repository';
import { SchedulerSettings } from './scheduler-settings';
import { WakeChannel } from './wake-channel';

/** What the liveness row tells this instance. */
export type LivenessEvent =
  /** Another instance's heartbeat is stale: take over its never-sent runs. */
  | 'stale-instance'
  /** This instance was taken over (its heartbeat went stale): hand back what it holds and start afresh. */
  | 'taken-over';

/** After a failed release mark (database unreachable), try again this soon. */
const MARK_RETRY_MS = 50;

/**
 * On a PostgreSQL server, this instance's row in `scheduler_instances`: a
 * heartbeat every `heartbeatIntervalMs` on the database's clock, and the
 * latest due instant it has released ("released through"). The dispatcher sends a group of runs
 * only once that mark covers their due time, so any run of a dead instance due
 * later was provably never sent and can be taken over at once; the mark is
 * refused to an instance that was taken over, so a stalled instance that
 * comes back never sends what another one took. The embedded database
 * cannot be shared with another process, so every scheduler on it dies with
 * the others: there it keeps no row and records nothing.
 */
@Injectable()
export class InstanceLiveness {
  private readonly logger = new Logger(InstanceLiveness.name);
  private readonly events = new Subject<LivenessEvent>();
  readonly events$: Observable<LivenessEvent> = this.events.asObservable();
  private started: Promise<void> | null = null;
  private stopped = false;
  private beatTimer: NodeJS.Timeout | null = null;
  private staleTimer: NodeJS.Timeout | null = null;
  /** The due instant (ms) up to which releases are recorded; runs due by it may be sent. */
  private markedThrough = -Infinity;
  /** Whether liveness applies (a PostgreSQL server); asked once. */
  private onServer: Promise<boolean> | null = null;
  /** The mark being written, and the instant it covers. */
  private marking: { through: number; done: Promise<boolean> } | null = null;

  constructor(
    private readonly settings: SchedulerSettings,
    private readonly instances: SchedulerInstancesRepository,
    private readonly runs: RunsService,
    private readonly wake: WakeChannel,
  ) {}

  get id(): string {
    return this.runs.leaseOwner;
  }

  /** Whether instances keep liveness rows here: only a PostgreSQL server can be shared by processes that die apart. */
  applies(): Promise<boolean> {
    this.onServer ??= this.wake.postgres().then((server) => {
      if (!server) this.markedThrough = Infinity; // nothing to record: every release may go at once
      return server;
    });
    return this.onServer;
  }

  /** Registers the row and starts beating (idempotent). */
  start(): Promise<void> {
    this.started ??= this.instances.register(this.id).then(
      () => {
        if (this.stopped) return;
        this.beatTimer = setInterval(() => void this.beat(), this.settings.heartbeatIntervalMs);
        this.beatTimer.unref();
        void this.beat(); // at once: instances that died while none was running are taken over now
      },
      (error: Error) => {
        this.started = null; // try again at the next mark
        throw error;
      },
    );
    return this.started;
  }

  /** Stops beating and deletes the row: other instances need not wait for it to go stale. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.beatTimer) clearInterval(this.beatTimer);
    if (this.staleTimer) clearTimeout(this.staleTimer);
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.instances.remove(this.id).catch((error: Error) => this.logger.warn(`Removing the liveness row failed: ${error.message}`));
  }

  /** After being taken over: a fresh row (nothing released yet), so this instance may claim and send again. */
  async revive(): Promise<void> {
    if (this.stopped) return;
    this.markedThrough = -Infinity;
    this.marking = null;
    await this.instances.register(this.id);
    this.logger.warn('This instance was taken over (its heartbeat went stale); it has handed back its unsent runs and rejoined');
  }

  /** Whether runs due at `due` may be sent without first recording the release. */
  mayRelease(due: number): boolean {
    return due <= this.markedThrough;
  }

  /**
   * Records that runs due up to `due` are being released; resolves true once
   * they may be sent, false if this instance was taken over (they must not
   * be). A database error is retried: sending unrecorded would risk a double.
   */
  markReleased(due: number): Promise<boolean> {
    if (due <= this.markedThrough) return Promise.resolve(true);
    if (this.marking && this.marking.through >= due) return this.marking.done;
    const previous = this.marking?.done ?? Promise.resolve(true);
    const done = previous.then(async (ok) => {
      if (!ok) return false;
      if (!(await this.applies())) return true;
      for (;;) {
        try {
          await this.start();
          const marked = await this.instances.markReleased(this.id, new Date(due));
          if (marked) this.markedThrough = Math.max(this.markedThrough, due);
          else this.events.next('taken-over');
          return marked;
        } catch (error) {
          if (this.stopped) return false;
          this.logger.warn(`Recording a release failed, retrying: ${(error as Error).message}`);
          await new Promise((resolve) => setTimeout(resolve, MARK_RETRY_MS));
        }
      }
    });
    const marking = { through: due, done };
    this.marking = marking;
    void done.finally(() => {
      if (this.marking === marking) this.marking = null;
    });
    return done;
  }

  /** Marks stale instances as taken over inside the caller's transaction (see SchedulerInstancesRepository.takeOverStale). */
  takeOverStale(tx: Queryable): Promise<StaleInstanceRow[]> {
    return this.instances.takeOverStale(tx, this.id, this.settings.instanceStaleMs);
  }

  /** Deletes the rows of stale instances with nothing left to take over. */
  forget(tx: Queryable, ids: string[]): Promise<void> {
    return ids.length === 0 ? Promise.resolve() : this.instances.removeStale(tx, ids);
  }

  private async beat(): Promise<void> {
    if (this.stopped) return;
    let row;
    try {
      row = await this.instances.beat(this.id);
    } catch (error) {
      this.logger.warn(`Heartbeat failed: ${(error as Error).message}`);
      return;
    }
    if (this.stopped) return;
    if (!row) {
      this.events.next('taken-over');
      return;
    }
    if (row.oldest_other_ms === null) return;
    // Act the moment the oldest other heartbeat turns stale, not at the next beat.
    const staleIn = row.oldest_other_ms + this.settings.instanceStaleMs - row.now_ms;
    if (staleIn < 0) this.events.next('stale-instance');
    else if (staleIn < this.settings.heartbeatIntervalMs && !this.staleTimer) {
      this.staleTimer = setTimeout(() => {
        this.staleTimer = null;
        if (!this.stopped) this.events.next('stale-instance');
      }, staleIn + 5);
      this.staleTimer.unref();
    }
  }
}
