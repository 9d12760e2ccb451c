import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuthModule } from '../auth/auth.module';
import { ApiKeyRateLimiter } from './api-key-rate-limiter';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyGuard } from './api-key.guard';
import { ApiKeysController } from './api-keys.controller';
import { ApiKeysService } from './api-keys.service';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity]), AuthModule],
  controllers: [ApiKeysController],
  providers: [ApiKeysService, ApiKeyGuard, ApiKeyRateLimiter],
  exports: [ApiKeysService, ApiKeyGuard, ApiKeyRateLimiter],
})
export class ApiKeysModule {}
