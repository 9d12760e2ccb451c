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

/** After a failed dispatch record (database unreachable), try again this soon. */
const RECORD_RETRY_MS = 50;

/**
 * This instance's row in `scheduler_instances` and its dispatch log. The
 * dispatcher starts a run only once its id is in the log, a few dozen at a
 * time: after a crash, a run of the dead instance that is not in its log was
 * certainly never sent and is taken over at once, and only the logged ones
 * (on the wire, or about to be) are uncertain. The record is refused to an
 * instance that was taken over, so a stalled instance that comes back never
 * sends what another one took.
 *
 * On a PostgreSQL server the row also carries a heartbeat every
 * `heartbeatIntervalMs` on the database's clock, from which the other
 * instances learn that this one died. The embedded database cannot be shared
 * with another process: there the row only anchors the dispatch log, and at
 * start every other instance's runs are known to be orphans.
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
  /** A dispatch record was refused and the instance has not rejoined yet. */
  private refusedSince = false;
  /** Whether this is a PostgreSQL server (heartbeats and takeovers apply); asked once. */
  private server: Promise<boolean> | null = null;
  /** When the dispatch log was last pruned (performance.now()). */
  private prunedAt = 0;
  /** Dispatch records waiting for the statement in flight (see recordDispatch). */
  private readonly dispatchQueue: Array<{ runIds: string[]; settle: (recorded: boolean) => void }> = [];
  private dispatchWriting = false;

  constructor(
    private readonly settings: SchedulerSettings,
    private readonly instances: SchedulerInstancesRepository,
    private readonly runs: RunsService,
    private readonly wake: WakeChannel,
  ) {}

  get id(): string {
    return this.runs.leaseOwner;
  }

  /** Whether instances keep heartbeats here: only a PostgreSQL server can be shared by processes that die apart. */
  onServer(): Promise<boolean> {
    this.server ??= this.wake.postgres();
    return this.server;
  }

  /** Registers the row and, on a server, starts beating (idempotent). */
  start(): Promise<void> {
    this.started ??= this.instances.register(this.id).then(
      async () => {
        if (this.stopped || !(await this.onServer())) return;
        this.beatTimer = setInterval(() => void this.beat(), this.settings.heartbeatIntervalMs);
        this.beatTimer.unref();
        void this.beat(); // at once: instances that died while none was running are taken over now
      },
      (error: Error) => {
        this.started = null; // try again at the next record
        throw error;
      },
    );
    return this.started;
  }

  /** Stops beating and deletes the row (and its dispatch log): other instances need not wait for it to go stale. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.beatTimer) clearInterval(this.beatTimer);
    if (this.staleTimer) clearTimeout(this.staleTimer);
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.instances.remove(this.id).catch((error: Error) => this.logger.warn(`Removing the liveness row failed: ${error.message}`));
  }

  /** After being taken over: a fresh row, so this instance may claim and send again. */
  async revive(): Promise<void> {
    if (this.stopped) return;
    await this.instances.register(this.id);
    this.refusedSince = false;
    this.logger.warn('This instance was taken over (its heartbeat went stale); it has handed back its unsent runs and rejoined');
  }

  /**
   * Appends runs to the dispatch log; resolves true once they may be sent,
   * false if this instance was taken over (they must not be) or is stopping.
   * One statement is in flight at a time and the records asked for meanwhile
   * go together in the next: with runs due at every millisecond, each
   * instant's few runs had a statement (and a log row) of their own.
   */
  recordDispatch(runIds: string[]): Promise<boolean> {
    return new Promise((settle) => {
      this.dispatchQueue.push({ runIds, settle });
      if (!this.dispatchWriting) void this.writeDispatchQueue();
    });
  }

  private async writeDispatchQueue(): Promise<void> {
    this.dispatchWriting = true;
    try {
      while (this.dispatchQueue.length > 0) {
        const records = this.dispatchQueue.splice(0);
        const ok = await this.appendDispatchLog(records.flatMap((r) => r.runIds));
        for (const record of records) record.settle(ok);
      }
    } finally {
      this.dispatchWriting = false;
    }
  }

  /** One append to the dispatch log. A database error is retried: sending unrecorded would risk a double. */
  private async appendDispatchLog(runIds: string[]): Promise<boolean> {
    for (;;) {
      try {
        await this.start();
        const recorded = await this.instances.recordDispatch(this.id, runIds);
        if (recorded) this.pruneDispatchLog();
        else if (!this.refusedSince) {
          this.refusedSince = true;
          this.events.next('taken-over');
        }
        return recorded;
      } catch (error) {
        if (this.stopped) return false;
        this.logger.warn(`Recording a dispatch failed, retrying: ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, RECORD_RETRY_MS));
      }
    }
  }

  /** The run ids the given (taken over) instances may have sent, inside the caller's transaction. */
  dispatchedBy(tx: Queryable, ids: string[]): Promise<string[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.instances.dispatchedRuns(tx, ids);
  }

  /**
   * Marks stale instances as taken over inside the caller's transaction (see
   * SchedulerInstancesRepository.takeOverStale); with `otherProcesses`, those
   * of every other process (the embedded database at start: no other process
   * can be alive).
   */
  takeOverStale(tx: Queryable, otherProcesses = false): Promise<StaleInstanceRow[]> {
    return otherProcesses ? this.instances.takeOverOtherProcesses(tx, this.runs.processPrefix) : this.instances.takeOverStale(tx, this.id, this.settings.instanceStaleMs);
  }

  /**
   * True from a refused dispatch record (this instance was taken over) until
   * it has rejoined: nothing may be sent meanwhile, and InstanceTakeover hands
   * back what it holds.
   */
  get takenOver(): boolean {
    return this.refusedSince;
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

  /**
   * Drops this instance's dispatch log entries older than two leases: by
   * then each of their runs was recorded, handed back, or taken over at its
   * lease's end.
   */
  private pruneDispatchLog(): void {
    const keepMs = 2 * this.runs.maxLeaseMs;
    if (performance.now() - this.prunedAt < keepMs / 4) return;
    this.prunedAt = performance.now();
    this.instances.pruneDispatches(this.id, keepMs).catch((error: Error) => this.logger.warn(`Pruning the dispatch log failed: ${error.message}`));
  }
}
