import { Injectable, Logger } from '@nestjs/common';
import { HttpExecutor, type ExecutionResult, type PreparedRequest } from '../executor/http-executor.service';
import { RUN_TRIGGER } from '@cronbeam/shared/jobs/job-types';
import { RunsService, type ClaimedRun } from '../runs/runs.service';
import { DatabaseClock } from './database-clock';
import { InstanceLiveness } from './instance-liveness';
import { SchedulerSettings } from './scheduler-settings';

interface ReadyRun {
  run: ClaimedRun;
  request: PreparedRequest;
  /** Whether it is in this instance's dispatch log (only then may it be sent: see InstanceLiveness.recordDispatch). */
  log: 'none' | 'pending' | 'done';
}

/**
 * setTimeout may wake this much late; a burst's timer is set this much early
 * and the rest is waited out precisely, turning the event loop. A smaller
 * group's timer is set for its instant itself: a steady stream has a group
 * at every moment, and waiting out each one's last milliseconds kept the
 * loop turning without a pause (CPU the database, on the same cores, needs).
 */
const EARLY_WAKE_MS = 4;

/**
 * The first runs a group starts on its instant are written to the dispatch
 * log this long before it: room for the round trip, so the record never
 * delays the release; and short, because a logged run counts as possibly sent
 * should this instance die before sending it.
 */
const RECORD_LEAD_MS = 20;

/**
 * Requests started per event-loop turn. Starting a whole burst in one
 * synchronous loop would hold back the socket writes and connects of the
 * first requests until the last one was queued; slices let them go out at once.
 */
const START_SLICE = 48;

/**
 * Runs waiting for a slot are logged two start slices at a time, the next
 * two as soon as fewer than two logged ones are left: while one slice goes
 * out the next is logged, so sending does not wait for the log, and after a
 * crash few runs that had not left yet count as possibly sent.
 */
const RECORD_CHUNK = 2 * START_SLICE;
const RECORD_LOW_WATER = 2 * START_SLICE;

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

/** Claiming (database round trips, cron arithmetic) keeps out of this window around each burst's release. */
const CLAIM_HOLD_BEFORE_MS = 150;
const CLAIM_HOLD_AFTER_MS = 100;
/**
 * A group this large is a burst, whose release claiming keeps clear of.
 * Smaller groups start in a few event-loop turns whatever else runs; with
 * runs due at every millisecond (a steady rate) a hold around each release
 * would never end, and claiming fell seconds behind.
 */
const BURST_MIN_RUNS = 100;

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
  /** The instants of waiting groups with at least BURST_MIN_RUNS runs. */
  private readonly bursts = new Set<number>();
  private lastBurstRelease = -Infinity;
  private readonly idle = new Set<() => void>();
  /**
   * Runs per job released and not yet answered (waiting for a slot or on the
   * wire), for jobs with overlap: skip only (what their next run looks at):
   * the other jobs, nearly all, cost no bookkeeping per run.
   */
  private readonly activeByJob = new Map<string, number>();
  private tailListeners: Array<() => void> = [];
  private readonly logger = new Logger(RunDispatcher.name);

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

  /**
   * Takes claimed runs: each executes at its due time (at once if it is
   * already due). A run taken over that may have reached its target already
   * is sent again only if its job allows a duplicate; otherwise its outcome
   * is recorded as unknown.
   */
  accept(runs: ClaimedRun[]): void {
    for (const run of runs) {
      if (run.uncertain && run.delivery === 'at_most_once') {
        this.runs.recordUnknownOutcome(run).catch((error: Error) => this.logger.error(`Recording an unknown outcome failed: ${error.message}`));
        continue;
      }
      if (run.uncertain) run.possibleDuplicate = true;
      const due = run.dueAt.getTime();
      const ready = {
        run,
        request: this.executor.prepare({ executionId: run.runId, url: run.url, method: run.method, headers: run.headers, body: run.body, responseRules: run.responseRules, timeoutMs: run.timeoutMs, accountId: run.accountId, signing: run.signing }),
        log: 'none' as const,
      };
      const group = this.waiting.get(due);
      if (group) {
        group.push(ready);
        if (group.length === BURST_MIN_RUNS) this.bursts.add(due);
      } else {
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
      if (keep.length < BURST_MIN_RUNS) this.bursts.delete(due);
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
    this.activeByJob.clear();
    for (const timer of this.warmTimers.values()) clearTimeout(timer);
    this.warmTimers.clear();
    const ids = [...this.waiting.values()].flat().map((r) => r.run.runId);
    ids.push(...this.queue.slice(this.queueHead).map((r) => r.run.runId));
    this.waiting.clear();
    this.bursts.clear();
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

  /** Logs the runs the group will start on its instant, then wakes a little early for the instant itself. */
  private prepareRelease(due: number): void {
    const group = this.waiting.get(due);
    if (!group) return;
    // Every run that can start on the instant is logged ahead of it: logging them slice by slice while they start
    // made a burst of 10,000 wait for round trips on a busy event loop. The rest are logged as slots free up.
    const backlog = this.queue.length - this.queueHead;
    const startsAtOnce = backlog > 0 ? RECORD_CHUNK : Math.max(RECORD_CHUNK, this.settings.concurrency - this.inFlight);
    this.record(group.slice(0, startsAtOnce));
    this.wakeFor(due, this.bursts.has(due) ? EARLY_WAKE_MS : 0);
  }

  /** A timer for the group's instant, `early` ms before it; whole milliseconds, rounded up (a timer may not wake before its time by the loop's clock). */
  private wakeFor(due: number, early: number): void {
    this.timers.set(due, setTimeout(() => this.release(due), Math.max(0, Math.ceil(due - this.clock.now()) - early)));
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

  /** Waits out the last milliseconds (a burst by setImmediate turns, a smaller group by its timer), then queues the group: its logged runs start at once. */
  private release(due: number): void {
    this.timers.delete(due);
    if (!this.waiting.has(due)) return;
    if (this.clock.now() < due) {
      if (this.bursts.has(due)) this.timers.set(due, setImmediate(() => this.release(due)));
      else this.wakeFor(due, 0); // woken before the instant by the database's clock (it may run ahead of the loop's)
      return;
    }
    if (this.bursts.delete(due)) {
      this.lastBurstRelease = due;
      this.pressure.burstReleased();
    }
    clearTimeout(this.warmTimers.get(due));
    this.warmTimers.delete(due);
    const group = this.waiting.get(due) ?? [];
    this.waiting.delete(due);
    const checkElsewhere: ReadyRun[] = [];
    const skipped: ReadyRun[] = [];
    for (const ready of group) {
      if (!this.skipsOverlap(ready.run)) this.enqueue(ready);
      else if (this.activeByJob.has(ready.run.jobId)) skipped.push(ready);
      else {
        // Counted as active at once, so that a second run of the job in this group (a catch-up) is skipped.
        this.markActive(ready.run.jobId);
        checkElsewhere.push(ready);
      }
    }
    this.skip(skipped);
    if (checkElsewhere.length > 0) void this.releaseUnlessInFlightElsewhere(due, checkElsewhere);
    this.pump();
  }

  /** Scheduled runs of jobs with overlap: skip are checked at their instant; retries and catch-up runs after a takeover are not. */
  private skipsOverlap(run: ClaimedRun): boolean {
    return run.overlap === 'skip' && run.trigger !== RUN_TRIGGER.retry && run.trigger !== RUN_TRIGGER.manual;
  }

  /**
   * Runs whose job has no earlier run in flight here may still have one on
   * another instance (consecutive due times of a job are not always claimed
   * by the same one): one query, then they start or are skipped. Only these
   * runs wait for it (about a round trip).
   */
  private async releaseUnlessInFlightElsewhere(due: number, readies: ReadyRun[]): Promise<void> {
    let busy: Set<string>;
    try {
      busy = new Set(await this.runs.inFlightElsewhere([...new Set(readies.map((r) => r.run.jobId))], new Date(due)));
    } catch (error) {
      // Unknown: sending is the safe side (the runs were claimed for this instant).
      this.logger.warn(`Checking for runs in flight elsewhere failed: ${(error as Error).message}`);
      busy = new Set();
    }
    const skipped: ReadyRun[] = [];
    for (const ready of readies) {
      if (busy.has(ready.run.jobId)) {
        this.markDone(ready.run.jobId);
        skipped.push(ready);
      } else this.queue.push(ready);
    }
    this.skip(skipped);
    this.pump();
  }

  private enqueue(ready: ReadyRun): void {
    // A retry or a manual run of a skip job is in flight too: its next scheduled run must see it.
    if (ready.run.overlap === 'skip') this.markActive(ready.run.jobId);
    this.queue.push(ready);
  }

  private markActive(jobId: string): void {
    this.activeByJob.set(jobId, (this.activeByJob.get(jobId) ?? 0) + 1);
  }

  /** Only for runs counted by markActive (jobs with overlap: skip). */
  private markDone(jobId: string): void {
    const left = (this.activeByJob.get(jobId) ?? 1) - 1;
    if (left > 0) this.activeByJob.set(jobId, left);
    else this.activeByJob.delete(jobId);
  }

  /** Records runs as skipped for overlap instead of sending them. */
  private skip(readies: ReadyRun[]): void {
    if (readies.length === 0) return;
    this.runs.skipOverlapping(readies.map((r) => r.run.runId)).catch((error: Error) => this.logger.error(`Recording overlapping runs as skipped failed: ${error.message}`));
  }

  /**
   * Writes runs to the dispatch log; once written they may start (the pump
   * is run again). Refused, this instance was taken over: those runs belong
   * to another instance now, nothing is logged or sent until InstanceTakeover
   * has handed back the rest and rejoined.
   */
  private record(readies: ReadyRun[]): void {
    const todo = this.liveness.takenOver ? [] : readies.filter((r) => r.log === 'none');
    if (todo.length === 0) return;
    for (const ready of todo) ready.log = 'pending';
    void this.liveness.recordDispatch(todo.map((r) => r.run.runId)).then((ok) => {
      for (const ready of todo) ready.log = ok ? 'done' : 'none';
      if (ok) this.pump();
    });
  }

  /** Keeps the runs next in line for a slot logged (or being logged) ahead of it. */
  private recordAhead(): void {
    let ahead = 0;
    let i = this.queueHead;
    for (; i < this.queue.length && this.queue[i].log !== 'none' && ahead < RECORD_LOW_WATER; i++) ahead++;
    if (ahead >= RECORD_LOW_WATER || i === this.queue.length) return;
    const next: ReadyRun[] = [];
    for (; i < this.queue.length && next.length < RECORD_CHUNK; i++) if (this.queue[i].log === 'none') next.push(this.queue[i]);
    this.record(next);
  }

  private pump(): void {
    for (let started = 0; this.inFlight < this.settings.concurrency && this.queueHead < this.queue.length; started++) {
      if (started === START_SLICE) {
        this.pumpSoon();
        break;
      }
      // Nothing goes on the wire before the dispatch log has it (the next batch is on its way: recordAhead).
      if (this.queue[this.queueHead].log !== 'done') break;
      const ready = this.queue[this.queueHead++];
      // Counted as waiting or in flight, never both: DispatchPressure judges a burst by their sum.
      this.reportWaiting();
      void this.execute(ready);
    }
    this.recordAhead();
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
      if (run.overlap === 'skip') this.markDone(run.jobId);
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
   * before and after a burst's release, so that claim work for later
   * instants does not take CPU from the requests of this one.
   */
  claimHoldMs(): number {
    const now = this.clock.now();
    let until = this.lastBurstRelease + CLAIM_HOLD_AFTER_MS;
    for (const due of this.bursts) {
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

  /** Tells DispatchPressure how many released runs have not started (waiting for a slot or their log entry). */
  private reportWaiting(): void {
    this.pressure.setWaiting(this.queue.length - this.queueHead);
  }
}
