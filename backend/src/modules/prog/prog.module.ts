import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { MonitorsModule } from '../monitors/monitors.module';
import { ProgMonitorsController } from './prog-monitors.controller';
import { ProgPingController } from './prog-ping.controller';
import { ProgController } from './prog.controller';

/** The public /prog API: jobs and heartbeat monitors by API key. Its OpenAPI document is mounted by mountProgApiDocs. */
@Module({
  imports: [JobsModule, MonitorsModule, ApiKeysModule, AuthModule],
  controllers: [ProgPingController, ProgController, ProgMonitorsController],
})
export class ProgModule {}
