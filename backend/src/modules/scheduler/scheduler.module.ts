import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { ScheduleModule } from '@nestjs/schedule';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ExecutorModule } from '../executor/executor.module';
import { JobsModule } from '../jobs/jobs.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { QuotaModule } from '../quota/quota.module';
import { RunsModule } from '../runs/runs.module';
import { DatabaseClock } from './database-clock';
import { Housekeeping } from './housekeeping';
import { IdleCollector } from './idle-collector';
import { InstanceLiveness } from './instance-liveness';
import { InstanceTakeover } from './instance-takeover';
import { RunClaimer } from './run-claimer';
import { RunDispatcher } from './run-dispatcher';
import { SchedulerLoop } from './scheduler-loop';
import { SchedulerInstancesRepository } from './scheduler-instances.repository';
import { SchedulerSettings } from './scheduler-settings';
import { SchedulerStopService } from './scheduler-stop.service';
import { WakeChannel } from './wake-channel';

/**
 * Fires every job on time, exactly once per due time, on any number of
 * instances sharing one PostgreSQL: claims due jobs, releases their runs on
 * the instant, wakes on job changes, corrects for clock skew (see ADR 0003),
 * and takes over the unsent runs of an instance that died (ADR 0091).
 */
@Module({
  imports: [ScheduleModule.forRoot(), AuditModule, AuthModule, JobsModule, RunsModule, QuotaModule, ExecutorModule, MaintenanceModule, TeamsModule],
  providers: [SchedulerSettings, DatabaseClock, WakeChannel, SchedulerInstancesRepository, InstanceLiveness, RunClaimer, RunDispatcher, InstanceTakeover, SchedulerLoop, Housekeeping, IdleCollector, SchedulerStopService],
  exports: [SchedulerStopService],
})
export class SchedulerModule {}
