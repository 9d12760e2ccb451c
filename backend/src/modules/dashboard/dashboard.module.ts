import { Module } from '@nestjs/common';
import { TeamsModule } from '../teams/teams.module';
import { AuthModule } from '../auth/auth.module';
import { DeploymentsModule } from '../deployments/deployments.module';
import { JobsModule } from '../jobs/jobs.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { QuotaModule } from '../quota/quota.module';
import { DashboardController } from './dashboard.controller';
import { DashboardService } from './dashboard.service';

@Module({
  imports: [AuthModule, JobsModule, QuotaModule, DeploymentsModule, MonitorsModule, TeamsModule],
  controllers: [DashboardController],
  providers: [DashboardService],
})
export class DashboardModule {}
