import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { StatusPagesModule } from '../status-pages/status-pages.module';
import { ProgMonitorsController } from './prog-monitors.controller';
import { ProgPingController } from './prog-ping.controller';
import { ProgStatusBadgesController, ProgStatusPagesController } from './prog-status.controller';
import { ProgController } from './prog.controller';

/** The public /prog API: jobs, heartbeat monitors, status pages and badges by API key. Its OpenAPI document is mounted by mountProgApiDocs. */
@Module({
  imports: [JobsModule, MonitorsModule, StatusPagesModule, ApiKeysModule, AuthModule],
  controllers: [ProgPingController, ProgController, ProgMonitorsController, ProgStatusPagesController, ProgStatusBadgesController],
})
export class ProgModule {}
