import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { ExecutorModule } from '../executor/executor.module';
import { QuotaModule } from '../quota/quota.module';
import { RunsModule } from '../runs/runs.module';
import { JobEvents } from './job-events';
import { JobScheduleService } from './job-schedule.service';
import { JobTargetCheck } from './job-target-check';
import { JobEntity } from './job.entity';
import { JobsController } from './jobs.controller';
import { JobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';

/** Job definitions and every job route (the /prog controller calls the same JobsService). Owns `jobs`. */
@Module({
  imports: [TypeOrmModule.forFeature([JobEntity]), AuthModule, QuotaModule, RunsModule, ExecutorModule],
  controllers: [JobsController],
  providers: [JobsRepository, JobEvents, JobsService, JobScheduleService, JobTargetCheck],
  exports: [JobsService, JobScheduleService],
})
export class JobsModule {}
