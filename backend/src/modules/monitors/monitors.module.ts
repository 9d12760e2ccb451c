import { Module } from '@nestjs/common';
import { AlertChannelsModule } from '../alert-channels/alert-channels.module';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { QuotaModule } from '../quota/quota.module';
import { MonitorsController, PingController } from './monitors.controller';
import { MonitorsRepository } from './monitors.repository';
import { MonitorsService } from './monitors.service';
import { PingLimiter } from './ping-limiter';

/** Heartbeat monitors (dead man's switches) and their ping URLs. */
@Module({
  imports: [AuthModule, JobsModule, QuotaModule, AlertChannelsModule],
  controllers: [MonitorsController, PingController],
  providers: [MonitorsRepository, MonitorsService, PingLimiter],
  exports: [MonitorsService],
})
export class MonitorsModule {}
