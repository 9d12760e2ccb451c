import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { HttpExecutor } from '../executor/http-executor.service';
import { JobsService } from '../jobs/jobs.service';
import { RunsService, type ClaimedRun } from '../runs/runs.service';
import { DatabaseClock } from './database-clock';
import { RunClaimer } from './run-claimer';
import { RunDispatcher } from './run-dispatcher';
import { SchedulerSettings } from './scheduler-settings';
import { WakeChannel } from './wake-channel';

/** When something is due but another instance holds it, look again this soon rather than spin. */
const CONTENDED_RETRY_MS = 25;

/** Claimed-but-unstarted runs allowed per execution slot before this instance stops claiming more. */
const BACKLOG_PER_SLOT = 100;

/**
 * A new process claims this many times further ahead for its first
 * NEW_PROCESS_MS: its claim code is not compiled yet either, and on a busy
 * machine the first claims of 10,000 jobs ended after their instant.
 */
const NEW_PROCESS_LOOKAHEAD_FACTOR = 2;
const NEW_PROCESS_MS = 10_000;

/** Allowance for the clocks of the instances and the database differing when deciding whether a wake-up is needed. */
const WAKE_CLOCK_MARGIN_MS = 1_000;

/**
 * Bursts back to back would hold claiming (see RunDispatcher.claimHoldMs)
 * without end, and the runs of later instants would be claimed late: after
 * this long held, a claim round goes ahead anyway (the look-ahead is longer).
 */
const MAX_CLAIM_HOLD_MS = 1_000;

/** The start-up warm-up (HttpExecutor.warmUp) stops this long before a release, so it never competes with one. */
const WARM_UP_QUIET_MS = 250;

/**
 * The scheduler's heartbeat. It sleeps until the earliest due time (minus the
 * look-ahead), claims what is due, hands it to the dispatcher, and arms the
 * timer again; a wake signal (job created, edited, resumed) re-arms it at
 * once, and the safety poll bounds every sleep.
 */
@Injectable()
export class SchedulerLoop implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(SchedulerLoop.name);
  private timer: NodeJS.Timeout | null = null;
  private ticking = false;
  private tickAgain = false;
  private stopped = false;
  private handingBack: Promise<void> | null = null;
  private wakeSubscription: Subscription | null = null;
  private jobSubscription: Subscription | null = null;
  private clockTimer: NodeJS.Timeout | null = null;
  /** When this instance started scheduling (performance.now()). */
  private startedAt = 0;
  /** Since when claiming has been held for a release (performance.now()); null while it is not. */
  private heldSince: number | null = null;

  constructor(
    private readonly settings: SchedulerSettings,
    private readonly claimer: RunClaimer,
    private readonly dispatcher: RunDispatcher,
    private readonly runs: RunsService,
    private readonly clock: DatabaseClock,
    private readonly wake: WakeChannel,
    private readonly jobs: JobsService,
    private readonly executor: HttpExecutor,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // Every instance announces its job changes, an HTTP-only one included: the schedulers are elsewhere.
    this.jobSubscription = this.jobs.changes$.subscribe((change) => {
      // A job created, edited or resumed may be due before the armed timer: tell every instance.
      if (change.nextRunAt && change.nextRunAt.getTime() < Date.now() + this.wakeWindowMs()) this.wake.signal();
      // A run already claimed ahead of its instant, by whichever instance, must not fire for a job paused meanwhile.
      if (change.kind === 'paused' || change.kind === 'deleted') this.wake.withdraw(change.jobId);
    });
    if (!this.settings.enabled) {
      this.logger.log('Scheduler disabled (SCHEDULER_ENABLED=false): this instance serves HTTP only');
      return;
    }
    await this.clock.measure();
    this.clockTimer = setInterval(() => void this.clock.measure().catch(() => undefined), 60_000);
    this.clockTimer.unref();
    await this.wake.listen();
    this.wakeSubscription = this.wake.messages$.subscribe((message) => {
      if (message.kind === 'withdraw') this.withdraw(message.jobId);
      else void this.tick();
    });
    this.logger.log('Scheduler started');
    this.startedAt = performance.now();
    void this.tick();
    void this.warmUp();
  }

  /**
   * A new process's first burst would otherwise run on code V8 has not
   * compiled yet: the executor warms it up between the first claims, giving
   * way to them and to the first release.
   */
  private async warmUp(): Promise<void> {
    const started = performance.now();
    const gc = (globalThis as { gc?: () => void }).gc;
    try {
      const sent = await this.executor.warmUp({
        inFlight: this.settings.concurrency,
        stop: () => this.stopped || this.dispatcher.msUntilNextRelease() < WARM_UP_QUIET_MS,
        // Claims come first: one that ends after its instant makes the whole group late.
        pause: () => this.ticking,
        // Without it the warm-up's garbage stays on the heap until the idle collector's first collection (+30-45 MB
        // peak in the steady benchmark); collecting after the warm-up instead threw away most of its compiled code.
        // See docs/adr/0115.
        collect: this.settings.idleCollection && typeof gc === 'function' ? () => gc() : undefined,
      });
      if (sent > 0) this.logger.log(`Warm-up: ${sent} requests to a loopback sink in ${Math.round(performance.now() - started)} ms`);
    } catch (error) {
      this.logger.warn(`Warm-up failed: ${(error as Error).message}`);
    }
  }

  /**
   * Stops claiming at once (no tick, no wake-up) and hands back the runs
   * claimed but not started, waking the other instances so that they fire
   * them on time rather than after the lease. Requests already sent go on.
   */
  stopClaiming(): Promise<void> {
    this.handingBack ??= this.handBack();
    return this.handingBack;
  }

  private async handBack(): Promise<void> {
    this.stopped = true;
    this.wakeSubscription?.unsubscribe();
    this.jobSubscription?.unsubscribe();
    if (this.timer) clearTimeout(this.timer);
    if (this.clockTimer) clearInterval(this.clockTimer);
    if (!this.settings.enabled) return;
    while (this.ticking) await new Promise((resolve) => setTimeout(resolve, 5));
    const unstarted = this.dispatcher.takeUnstarted();
    if (unstarted.length === 0) return;
    try {
      await this.claimer.release(unstarted);
      this.wake.signal();
      this.logger.log(`Stopping: handed back ${unstarted.length} claimed run(s) not yet sent`);
    } catch (error) {
      this.logger.warn(`Releasing runs failed: ${(error as Error).message}`);
    }
  }

  /** The graceful stop (see bootstrap.ts) has drained the requests by now; a bare close waits for them up to the drain budget. */
  async onModuleDestroy(): Promise<void> {
    await this.stopClaiming();
    if (!this.settings.enabled) return;
    await Promise.race([this.dispatcher.whenIdle(), new Promise((resolve) => setTimeout(resolve, this.settings.drainTimeoutMs).unref())]);
    await this.runs.drain();
  }

  /** Takes back this instance's not-yet-released runs of a paused job (deleted ones cascade away). */
  private withdraw(jobId: string): void {
    this.claimer
      .unclaim(this.dispatcher.withdraw(jobId))
      .catch((error: Error) => this.logger.warn(`Undoing withdrawn claims failed: ${error.message}`));
  }

  /** Claims everything due within the look-ahead, then sleeps until the next due time. */
  private async tick(): Promise<void> {
    if (this.stopped) return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = true;
    let nextDelay = this.settings.pollIntervalMs;
    try {
      do {
        this.tickAgain = false;
        await this.claimAll((horizon, now) => this.claimer.claimDueJobs(horizon, now));
        await this.claimAll((horizon, now) => this.claimer.claimQueuedRuns(horizon, now));
      } while (this.tickAgain && !this.stopped && this.claimHoldMs() === 0);
      // A hold that ran out has let this round through; the next one is timed afresh.
      if (this.heldSince !== null && performance.now() - this.heldSince >= MAX_CLAIM_HOLD_MS) this.heldSince = null;
      const hold = this.claimHoldMs();
      nextDelay = hold > 0 ? hold : await this.delayUntilNextDue();
    } catch (error) {
      this.logger.error(`Scheduler tick failed: ${(error as Error).message}`);
    } finally {
      this.ticking = false;
    }
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), nextDelay);
  }

  private async claimAll(claim: (horizon: Date, now: number) => Promise<{ runs: ClaimedRun[]; more: boolean }>): Promise<void> {
    // An instance that cannot keep up stops claiming: what it leaves in the database, other instances take.
    for (let more = true; more && !this.stopped && this.dispatcher.backlog() < this.maxBacklog() && this.claimHoldMs() === 0; ) {
      const now = this.clock.now();
      const batch = await claim(new Date(now + this.lookaheadMs()), now);
      this.dispatcher.accept(batch.runs);
      more = batch.more;
    }
  }

  /** The dispatcher's hold around a burst's release, ended early once claiming has been held MAX_CLAIM_HOLD_MS. */
  private claimHoldMs(): number {
    const hold = this.dispatcher.claimHoldMs();
    if (hold === 0) {
      this.heldSince = null;
      return 0;
    }
    const now = performance.now();
    this.heldSince ??= now;
    const left = MAX_CLAIM_HOLD_MS - (now - this.heldSince);
    return left > 0 ? Math.min(hold, Math.ceil(left)) : 0;
  }

  /**
   * How soon a job must be due for its change to wake the schedulers. Each
   * instance sleeps at most the safety poll, then claims what falls within its
   * look-ahead and arms its timer for the earliest due time it reads: a run
   * due later than that is found in time without a wake-up. Skipping those
   * saves a notification and, on every instance, a round of claim queries per
   * change (most creations are due minutes or more away).
   */
  private wakeWindowMs(): number {
    return this.settings.pollIntervalMs + this.settings.lookaheadMs * NEW_PROCESS_LOOKAHEAD_FACTOR + WAKE_CLOCK_MARGIN_MS;
  }

  /** The look-ahead, longer while the process is new (and warms up: not under test, whose timings it would change). */
  private lookaheadMs(): number {
    const isNew = this.executor.warmsUp && performance.now() - this.startedAt < NEW_PROCESS_MS;
    return isNew ? this.settings.lookaheadMs * NEW_PROCESS_LOOKAHEAD_FACTOR : this.settings.lookaheadMs;
  }

  private maxBacklog(): number {
    return Math.max(this.settings.batchSize, this.settings.concurrency * BACKLOG_PER_SLOT);
  }

  private async delayUntilNextDue(): Promise<number> {
    const earliest = await this.claimer.earliestDue();
    if (!earliest) return this.settings.pollIntervalMs;
    const wakeIn = earliest.getTime() - this.lookaheadMs() - this.clock.now();
    return Math.min(this.settings.pollIntervalMs, Math.max(CONTENDED_RETRY_MS, wakeIn));
  }
}
