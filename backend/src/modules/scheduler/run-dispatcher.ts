import { Injectable } from '@nestjs/common';
import { HttpExecutor, type ExecutionResult, type PreparedRequest } from '../executor/http-executor.service';
import { RunsService, type ClaimedRun } from '../runs/runs.service';
import { DatabaseClock } from './database-clock';
import { InstanceLiveness } from './instance-liveness';
import { SchedulerSettings } from './scheduler-settings';

interface ReadyRun {
  run: ClaimedRun;
  request: PreparedRequest;
}

/** setTimeout may wake this much late; timers are set this much early and the rest is waited out precisely. */
const EARLY_WAKE_MS = 4;

/**
 * A group's release is recorded in the liveness row this long before its
 * instant: room for the round trip, so the record never delays the release;
 * and short, because runs recorded as released keep their long lease should
 * this instance die before sending them.
 */
const RECORD_LEAD_MS = 20;

/**
 * Requests started per event-loop turn. Starting a whole burst in one
 * synchronous loop would hold back the socket writes and connects of the
 * first requests until the last one was queued; slices let them go out at once.
 */
const START_SLICE = 48;

/** A burst is at its tail when this few of its requests await their answer (fewer than any pool's connections per origin). */
const BURST_TAIL = 4;

/**
 * Connections for a group are opened this long before its instant: early
 * enough for a distant TLS handshake, late enough that servers (which close
 * idle connections after a few seconds) keep them; and half a second, so that
 * with jobs due every second the warm-up falls between two releases rather
 * than on the previous one.
 */
const WARM_LEAD_MS = 500;
/** A group due sooner than this is not worth warming: the pool connects as fast as the warm-up would. */
const WARM_MIN_MS = 50;

/** Claiming (database round trips, cron arithmetic) keeps out of this window around each release. */
const CLAIM_HOLD_BEFORE_MS = 150;
const CLAIM_HOLD_AFTER_MS = 100;

/**
 * Holds claimed runs until their due instant and then executes them with
 * bounded concurrency. Requests are built at claim time; runs due at the same
 * instant share one timer that wakes a little early and releases them on the
 * instant (by the database's clock), never before it.
 */
@Injectable()
export class RunDispatcher {
  private readonly waiting = new Map<number, ReadyRun[]>();
  private readonly timers = new Map<number, NodeJS.Timeout | NodeJS.Immediate>();
  private readonly warmTimers = new Map<number, NodeJS.Timeout>();
  private readonly queue: ReadyRun[] = [];
  private queueHead = 0;
  private inFlight = 0;
  private pumpScheduled = false;
  private lastRelease = -Infinity;
  private readonly idle = new Set<() => void>();
  private tailListeners: Array<() => void> = [];
  /** Due instants whose release is being recorded in the liveness row. */
  private readonly marking = new Set<number>();

  private readonly metrics: RunsService['metrics'];
  private readonly pressure: RunsService['pressure'];

  constructor(
    private readonly settings: SchedulerSettings,
    private readonly executor: HttpExecutor,
    private readonly runs: RunsService,
    private readonly clock: DatabaseClock,
    private readonly liveness: InstanceLiveness,
  ) {
    this.metrics = runs.metrics;
    this.pressure = runs.pressure;
    this.metrics.readGaugesFrom({ inFlight: () => this.inFlight, backlog: () => this.backlog() });
  }

  /** Takes claimed runs: each executes at its due time (at once if it is already due). */
  accept(runs: ClaimedRun[]): void {
    for (const run of runs) {
      const due = run.dueAt.getTime();
      const ready = { run, request: this.executor.prepare({ executionId: run.runId, url: run.url, method: run.method, headers: run.headers, body: run.body, responseRules: run.responseRules, timeoutMs: run.timeoutMs, userId: run.userId }) };
      const group = this.waiting.get(due);
      if (group) group.push(ready);
      else {
        this.waiting.set(due, [ready]);
        this.arm(due);
      }
    }
  }

  /** Takes back the not-yet-released runs of one job (it was paused or deleted); answers their ids. */
  withdraw(jobId: string): string[] {
    const ids: string[] = [];
    for (const [due, group] of this.waiting) {
      const keep = group.filter((r) => r.run.jobId !== jobId);
      if (keep.length === group.length) continue;
      ids.push(...group.filter((r) => r.run.jobId === jobId).map((r) => r.run.runId));
      if (keep.length > 0) this.waiting.set(due, keep);
      else this.waiting.delete(due);
    }
    return ids;
  }

  /** Runs claimed but not yet started: given back to the database on shutdown. */
  takeUnstarted(): string[] {
    for (const timer of this.timers.values()) {
      clearTimeout(timer as NodeJS.Timeout);
      clearImmediate(timer as NodeJS.Immediate);
    }
    this.timers.clear();
    for (const timer of this.warmTimers.values()) clearTimeout(timer);
    this.warmTimers.clear();
    const ids = [...this.waiting.values()].flat().map((r) => r.run.runId);
    ids.push(...this.queue.slice(this.queueHead).map((r) => r.run.runId));
    this.waiting.clear();
    this.queue.length = 0;
    this.queueHead = 0;
    this.reportWaiting();
    return ids;
  }

  /** Resolves when no request is in flight. */
  whenIdle(): Promise<void> {
    if (this.inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.add(resolve));
  }

  private arm(due: number): void {
    const until = due - this.clock.now();
    this.timers.set(due, setTimeout(() => this.prepareRelease(due), Math.max(0, until - RECORD_LEAD_MS)));
    if (until >= WARM_MIN_MS) this.warmTimers.set(due, setTimeout(() => this.warm(due), Math.max(0, until - WARM_LEAD_MS)));
  }

  /** Starts recording the release, then wakes a little early for the instant itself. */
  private prepareRelease(due: number): void {
    if (!this.waiting.has(due)) return;
    if (!this.liveness.mayRelease(due)) this.recordRelease(due);
    this.timers.set(due, setTimeout(() => this.release(due), Math.max(0, due - this.clock.now() - EARLY_WAKE_MS)));
  }

  /** Has connections opened to the origins of a group about to be released. */
  private warm(due: number): void {
    this.warmTimers.delete(due);
    const byOrigin = new Map<string, { url: URL; count: number }>();
    for (const { request } of this.waiting.get(due) ?? []) {
      if (!request.target) continue;
      const entry = byOrigin.get(request.target.origin);
      if (entry) entry.count++;
      else byOrigin.set(request.target.origin, { url: request.target.url, count: 1 });
    }
    this.executor.warm(byOrigin);
  }

  /**
   * Waits out the last milliseconds (setImmediate turns), then queues the
   * group. Nothing is sent before the liveness row records the release (one
   * tiny UPDATE, started RECORD_LEAD_MS ahead): if this instance dies, runs
   * due later are known to be unsent and are taken over at once.
   */
  private release(due: number): void {
    if (!this.waiting.has(due)) return;
    const recorded = this.liveness.mayRelease(due);
    if (!recorded) this.recordRelease(due);
    if (this.clock.now() < due) {
      this.timers.set(due, setImmediate(() => this.release(due)));
      return;
    }
    if (!recorded) {
      // Due, not yet recorded: the record's answer releases the group (no spinning meanwhile).
      this.timers.delete(due);
      return;
    }
    this.timers.delete(due);
    this.lastRelease = due;
    clearTimeout(this.warmTimers.get(due));
    this.warmTimers.delete(due);
    const group = this.waiting.get(due) ?? [];
    this.waiting.delete(due);
    for (const ready of group) this.queue.push(ready);
    this.pump();
  }

  /** Records the release of `due` once; when recorded, releases the group if it waits for nothing else. */
  private recordRelease(due: number): void {
    if (this.marking.has(due)) return;
    this.marking.add(due);
    void this.liveness.markReleased(due).then((ok) => {
      this.marking.delete(due);
      // Refused: this instance was taken over, and the group goes back to the database (InstanceTakeover).
      if (ok && this.waiting.has(due) && !this.timers.has(due)) this.release(due);
    });
  }

  private pump(): void {
    for (let started = 0; this.inFlight < this.settings.concurrency && this.queueHead < this.queue.length; started++) {
      if (started === START_SLICE) {
        this.pumpSoon();
        break;
      }
      const ready = this.queue[this.queueHead++];
      void this.execute(ready);
    }
    if (this.queueHead === this.queue.length) {
      this.queue.length = 0;
      this.queueHead = 0;
    }
    this.reportWaiting();
  }

  private pumpSoon(): void {
    if (this.pumpScheduled) return;
    this.pumpScheduled = true;
    setImmediate(() => {
      this.pumpScheduled = false;
      this.pump();
    });
  }

  private async execute({ run, request }: ReadyRun): Promise<void> {
    this.inFlight++;
    this.pressure.started();
    this.metrics.observeLateness(Math.max(0, this.clock.now() - run.dueAt.getTime()) / 1000);
    let result: ExecutionResult;
    try {
      result = await this.runs.execute(request);
    } finally {
      this.inFlight--;
      this.pressure.finished();
    }
    this.pump();
    if (this.inFlight === BURST_TAIL && this.queueHead === this.queue.length && this.tailListeners.length > 0) {
      const listeners = this.tailListeners;
      this.tailListeners = [];
      for (const listener of listeners) listener();
    }
    if (this.inFlight === 0) {
      for (const resolve of this.idle) resolve();
      this.idle.clear();
    }
    await this.runs.record(run, result);
  }

  /**
   * How long the scheduler should wait before claiming more: non-zero just
   * before and after a release, so that claim work for later instants does
   * not take CPU from the requests of this one.
   */
  claimHoldMs(): number {
    const now = this.clock.now();
    let until = this.lastRelease + CLAIM_HOLD_AFTER_MS;
    for (const due of this.waiting.keys()) {
      if (due - now <= CLAIM_HOLD_BEFORE_MS) until = Math.max(until, due + CLAIM_HOLD_AFTER_MS);
    }
    return Math.max(0, Math.ceil(until - now));
  }

  /** Time until the next group is released: 0 while released runs wait for a slot. */
  msUntilNextRelease(): number {
    if (this.queueHead < this.queue.length) return 0;
    let next = Infinity;
    for (const due of this.waiting.keys()) next = Math.min(next, due);
    return Math.max(0, next - this.clock.now());
  }

  /**
   * Calls `listener` once, when the next burst is down to its last few
   * requests: all of them on the wire, their objects still alive.
   */
  onBurstTail(listener: () => void): void {
    this.tailListeners.push(listener);
  }

  /** Runs claimed by this instance and not started yet. */
  backlog(): number {
    let held = this.queue.length - this.queueHead;
    for (const group of this.waiting.values()) held += group.length;
    return held;
  }

  /** Tells DispatchPressure how many released runs wait for a slot. */
  private reportWaiting(): void {
    this.pressure.setWaiting(this.queue.length - this.queueHead);
  }
}
