import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { DatabaseClock } from './database-clock';
import { InstanceLiveness } from './instance-liveness';
import { RunClaimer } from './run-claimer';
import { RunDispatcher } from './run-dispatcher';
import { SchedulerSettings } from './scheduler-settings';

/**
 * Acts on the liveness rows (ADR 0091, 0129): when another instance's
 * heartbeat goes stale, takes over its runs at once (same run ids) and
 * dispatches them, those it may have sent as its jobs' delivery says; when
 * this instance finds itself taken over (it stalled for longer than the
 * stale time), hands back the runs it still holds unsent and rejoins with a
 * fresh row. On the embedded database the previous process is dead by
 * definition: its runs are taken over at start.
 */
@Injectable()
export class InstanceTakeover implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(InstanceTakeover.name);
  private subscription: Subscription | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly settings: SchedulerSettings,
    private readonly liveness: InstanceLiveness,
    private readonly claimer: RunClaimer,
    private readonly dispatcher: RunDispatcher,
    private readonly clock: DatabaseClock,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.settings.enabled) return;
    const onServer = await this.liveness.onServer();
    this.subscription = this.liveness.events$.subscribe((event) => this.schedule(event === 'stale-instance' ? () => this.takeOver() : () => this.rejoin()));
    await this.liveness.start();
    if (!onServer) this.schedule(() => this.takeOver(true));
  }

  /**
   * Takes over nothing more and stops rejoining (a stopping instance must
   * send nothing new); resolves after an action in progress. The heartbeat
   * goes on, so that the runs still on the wire keep their owner.
   */
  async stopActing(): Promise<void> {
    this.stopped = true;
    this.subscription?.unsubscribe();
    await this.running;
  }

  /** Deletes the liveness row (other instances need not wait for it to go stale), after a takeover in progress. */
  async onModuleDestroy(): Promise<void> {
    await this.stopActing();
    await this.liveness.stop();
  }

  /** One action at a time, in the order the events came. */
  private schedule(action: () => Promise<void>): void {
    if (this.stopped) return;
    const next = (this.running ?? Promise.resolve())
      .then(() => (this.stopped ? undefined : action()))
      .catch((error: Error) => this.logger.error(`Instance takeover failed: ${error.message}`));
    this.running = next;
    void next.finally(() => {
      if (this.running === next) this.running = null;
    });
  }

  private async takeOver(otherProcesses = false): Promise<void> {
    for (let more = true; more && !this.stopped; ) {
      const batch = await this.claimer.takeOverDead(this.clock.now(), otherProcesses);
      this.dispatcher.accept(batch.runs);
      more = batch.more;
    }
  }

  private async rejoin(): Promise<void> {
    await this.claimer.release(this.dispatcher.takeUnstarted());
    await this.liveness.revive();
  }
}
