import { Module } from '@nestjs/common';
import { ScheduleModule } from '@nestjs/schedule';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { DatabaseClock } from './database-clock';
import { ExecutionEvents } from './execution-events';
import { HttpExecutor } from './executor/http-executor';
import { Housekeeping } from './housekeeping';
import { IdleCollector } from './idle-collector';
import { RunClaimer } from './run-claimer';
import { RunDispatcher } from './run-dispatcher';
import { ProgRunNowController, RunNowController } from './run-now.controllers';
import { RunNowService } from './run-now.service';
import { DispatchPressure } from './dispatch-pressure';
import { RunRecorder } from './run-recorder';
import { SchedulerInstance } from './scheduler-instance';
import { SchedulerLoop } from './scheduler-loop';
import { SchedulerMetrics } from './scheduler-metrics';
import { SchedulerSettings } from './scheduler-settings';
import { TestRunLimiter } from './test-run-limiter';
import { WakeChannel } from './wake-channel';

/**
 * Fires every job on time, exactly once per due time, on any number of
 * instances sharing one PostgreSQL (see the README's scheduler notes).
 */
@Module({
  imports: [ScheduleModule.forRoot(), JobsModule, AuthModule, ApiKeysModule],
  controllers: [RunNowController, ProgRunNowController],
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
    DispatchPressure,
    SchedulerMetrics,
    SchedulerLoop,
    Housekeeping,
    IdleCollector,
    RunNowService,
    TestRunLimiter,
  ],
  exports: [ExecutionEvents, SchedulerSettings, HttpExecutor, WakeChannel],
})
export class SchedulerModule {}
