import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ExecutorModule } from '../executor/executor.module';
import { QuotaModule } from '../quota/quota.module';
import { DispatchPressure } from './dispatch-pressure.service';
import { ExecutionEvents } from './execution-events';
import { ExecutionMetrics } from './execution-metrics';
import { JobRunEntity } from './job-run.entity';
import { JobRunsRepository } from './job-runs.repository';
import { LeaseOwner } from './lease-owner';
import { RunRecorder } from './run-recorder';
import { RunSettings } from './run-settings';
import { RunsService } from './runs.service';

/** Run records: the scheduler's queue, every job's execution log, "run now", results and their retention. Owns `job_runs`. */
@Module({
  imports: [TypeOrmModule.forFeature([JobRunEntity]), QuotaModule, ExecutorModule],
  providers: [JobRunsRepository, RunSettings, LeaseOwner, ExecutionEvents, ExecutionMetrics, DispatchPressure, RunRecorder, RunsService],
  exports: [RunsService],
})
export class RunsModule {}
