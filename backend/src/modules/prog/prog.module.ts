import { Module } from '@nestjs/common';
import { AlertChannelsModule } from '../alert-channels/alert-channels.module';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuditModule } from '../audit/audit.module';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { MaintenanceModule } from '../maintenance/maintenance.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { StatusPagesModule } from '../status-pages/status-pages.module';
import { ProgAuditController } from './prog-audit.controller';
import { ProgMaintenanceController } from './prog-maintenance.controller';
import { ProgMonitorsController } from './prog-monitors.controller';
import { ProgPingController } from './prog-ping.controller';
import { ProgStatusBadgesController, ProgStatusPagesController } from './prog-status.controller';
import { ProgController } from './prog.controller';

/** The public /prog API: jobs, heartbeat monitors, status pages, badges, maintenance windows and the audit log by API key. Its OpenAPI document is mounted by mountProgApiDocs. */
@Module({
  imports: [AlertChannelsModule, AuditModule, JobsModule, MonitorsModule, StatusPagesModule, MaintenanceModule, ApiKeysModule, AuthModule],
  controllers: [ProgPingController, ProgController, ProgMonitorsController, ProgStatusPagesController, ProgStatusBadgesController, ProgMaintenanceController, ProgAuditController],
})
export class ProgModule {}
