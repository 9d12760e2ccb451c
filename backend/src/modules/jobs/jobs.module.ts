import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { JobRunEntity } from '../scheduler/job-run.entity';
import { JobEvents } from './job-events';
import { JobLogsService } from './job-logs.service';
import { JobTargetPolicy } from './job-target-policy';
import { JobEntity } from './job.entity';
import { JobsController } from './jobs.controller';
import { JobsService } from './jobs.service';

@Module({
  imports: [TypeOrmModule.forFeature([JobEntity, JobRunEntity]), AuthModule],
  controllers: [JobsController],
  providers: [JobEvents, JobsService, JobLogsService, JobTargetPolicy],
  exports: [JobEvents, JobsService, JobLogsService],
})
export class JobsModule {}
