import { Module } from '@nestjs/common';
import { ApiKeysModule } from '../api-keys/api-keys.module';
import { AuthModule } from '../auth/auth.module';
import { JobsModule } from '../jobs/jobs.module';
import { ProgPingController } from './prog-ping.controller';
import { ProgController } from './prog.controller';

/** The public /prog API: jobs by API key. Its OpenAPI document is mounted by mountProgApiDocs. */
@Module({
  imports: [JobsModule, ApiKeysModule, AuthModule],
  controllers: [ProgPingController, ProgController],
})
export class ProgModule {}
