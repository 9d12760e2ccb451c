import { Injectable } from '@nestjs/common';
import { InstanceTakeover } from './instance-takeover';
import { RunDispatcher } from './run-dispatcher';
import { SchedulerLoop } from './scheduler-loop';

/** The scheduler's part of a graceful stop (see stopGracefully in bootstrap.ts and ADR 0127). */
@Injectable()
export class SchedulerStopService {
  constructor(
    private readonly takeover: InstanceTakeover,
    private readonly loop: SchedulerLoop,
    private readonly dispatcher: RunDispatcher,
  ) {}

  /**
   * Claims and takes over nothing more, and hands back the runs claimed but
   * not sent (another instance fires them on time). Taking over stops first,
   * so runs it took are handed back too. Requests already sent go on, and the
   * liveness row keeps beating for them until the application closes.
   */
  async stopClaiming(): Promise<void> {
    await this.takeover.stopActing();
    await this.loop.stopClaiming();
  }

  /** Resolves once every scheduled execution has ended and handed its result to the recorder. */
  executionsHandedOver(): Promise<void> {
    return this.dispatcher.whenIdle();
  }
}
