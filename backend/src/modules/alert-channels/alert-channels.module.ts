import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ExecutorModule } from '../executor/executor.module';
import { JobsModule } from '../jobs/jobs.module';
import { AlertChannelsController, AlertChannelVerificationsController } from './alert-channels.controller';
import { AlertChannelsRepository } from './alert-channels.repository';
import { AlertChannelsService } from './alert-channels.service';

/** Where alerts go besides the account's email: the user's channels and their delivery log. */
@Module({
  imports: [AuthModule, ExecutorModule, JobsModule],
  controllers: [AlertChannelsController, AlertChannelVerificationsController],
  providers: [AlertChannelsRepository, AlertChannelsService],
  exports: [AlertChannelsService],
})
export class AlertChannelsModule {}
