import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { DatabaseClock } from './database-clock';
import { ExecutionEvents } from './execution-events';
import { HttpExecutor } from './executor/http-executor';
import { Housekeeping } from './housekeeping';
import { RunClaimer } from './run-claimer';
import { RunDispatcher } from './run-dispatcher';
import { RunRecorder } from './run-recorder';
import { SchedulerInstance } from './scheduler-instance';
import { SchedulerLoop } from './scheduler-loop';
import { SchedulerMetrics } from './scheduler-metrics';
import { SchedulerSettings } from './scheduler-settings';
import { WakeChannel } from './wake-channel';

/**
 * Fires every job on time, exactly once per due time, on any number of
 * instances sharing one PostgreSQL (see the README's scheduler notes).
 */
@Module({
  imports: [ScheduleModule.forRoot()],
  providers: [
    SchedulerSettings,
    SchedulerInstance,
    DatabaseClock,
    WakeChannel,
    ExecutionEvents,
    HttpExecutor,
    RunClaimer,
    RunRecorder,
    RunDispatcher,
    SchedulerMetrics,
    SchedulerLoop,
    Housekeeping,
  ],
  exports: [ExecutionEvents, SchedulerSettings, HttpExecutor, WakeChannel],
})
export class SchedulerModule {}
