import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { AuthModule } from '../auth/auth.module';
import { ExecutorModule } from '../executor/executor.module';
import { JobsModule } from '../jobs/jobs.module';
import { RunsModule } from '../runs/runs.module';
import { AlertChannelsController, AlertChannelVerificationsController, JobCallbackDeliveriesController } from './alert-channels.controller';
import { AlertChannelsRepository } from './alert-channels.repository';
import { AlertChannelsService } from './alert-channels.service';

/** Where alerts go besides the account's email: the account's channels and their delivery log; and jobs' run callbacks, delivered by the same queue. */
@Module({
  imports: [AuthModule, ExecutorModule, JobsModule, RunsModule, TeamsModule],
  controllers: [AlertChannelsController, AlertChannelVerificationsController, JobCallbackDeliveriesController],
  providers: [AlertChannelsRepository, AlertChannelsService],
  exports: [AlertChannelsService],
})
export class AlertChannelsModule {}
