import { Global, Module } from '@nestjs/common';
import { DatabaseRateLimiter } from './database-rate-limiter';
import { MemoryRateLimiter } from './memory-rate-limiter';
import { RateLimitWindowsRepository } from './rate-limit-windows.repository';

/** The rate limiters (common/rate-limit/rate-limit.ts), one of each store for the whole application. */
@Global()
@Module({
  providers: [RateLimitWindowsRepository, DatabaseRateLimiter, { provide: MemoryRateLimiter, useFactory: () => new MemoryRateLimiter() }],
  exports: [DatabaseRateLimiter, MemoryRateLimiter],
})
export class RateLimitModule {}
