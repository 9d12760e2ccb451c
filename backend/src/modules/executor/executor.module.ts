import { Module } from '@nestjs/common';
import { ExecutorSettings } from './executor-settings';
import { HttpExecutor } from './http-executor.service';
import { TargetPolicy } from './target-policy.service';

/**
 * Sends jobs' HTTP requests: one bounded keep-alive pool, connections warmed
 * ahead of a burst, redirects followed by hand, and the SSRF guard (private,
 * loopback and metadata addresses refused after DNS resolution and, for
 * literal hosts, already when a job is saved).
 */
@Module({
  providers: [ExecutorSettings, HttpExecutor, TargetPolicy],
  exports: [HttpExecutor, TargetPolicy],
})
export class ExecutorModule {}
