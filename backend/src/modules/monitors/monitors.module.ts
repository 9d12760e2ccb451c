import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { AlertChannelsModule } from '../alert-channels/alert-channels.module';
import { AuthModule } from '../auth/auth.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { QuotaModule } from '../quota/quota.module';
import { KnownPingTokens } from './known-ping-tokens';
import { MonitorsController, PingController } from './monitors.controller';
import { MonitorsRepository } from './monitors.repository';
import { MonitorsService } from './monitors.service';

/** Heartbeat monitors (dead man's switches) and their ping URLs. */
@Module({
  imports: [AuthModule, QuotaModule, AlertChannelsModule, MaintenanceModule, TeamsModule],
  controllers: [MonitorsController, PingController],
  providers: [MonitorsRepository, MonitorsService, KnownPingTokens],
  exports: [MonitorsService],
})
export class MonitorsModule {}
