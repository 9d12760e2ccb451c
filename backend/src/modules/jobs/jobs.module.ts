import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { ExecutorModule } from '../executor/executor.module';
import { QuotaModule } from '../quota/quota.module';
import { RunsModule } from '../runs/runs.module';
import { JobEvents } from './job-events';
import { JobRunsService } from './job-runs.service';
import { JobScheduleService } from './job-schedule.service';
import { JobTargetCheck } from './job-target-check';
import { JobTestRunService } from './job-test-run.service';
import { JobTransferService } from './job-transfer.service';
import { JobEntity } from './job.entity';
import { JobsController } from './jobs.controller';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

/** Job definitions and every job route (the /prog controller calls the same services). Owns `jobs`. */
@Module({
  imports: [TypeOrmModule.forFeature([JobEntity]), AuditModule, AuthModule, QuotaModule, RunsModule, ExecutorModule, TeamsModule],
  controllers: [JobsController],
  providers: [JobsRepository, JobEvents, JobsService, JobTransferService, JobTestRunService, JobRunsService, JobScheduleService, JobTargetCheck],
  exports: [JobsService, JobTransferService, JobRunsService, JobScheduleService],
})
export class JobsModule {}
