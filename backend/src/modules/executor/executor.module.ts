import { Module } from '@nestjs/common';
import { ExecutorSettings } from './executor-settings';
import { HttpExecutor } from './http-executor.service';
import { RequestSigner } from './request-signer.service';
import { TargetJwksController } from './target-jwks.controller';
import { TargetPolicy } from './target-policy.service';
import { TargetTokenKeysRepository } from './target-token-keys.repository';

/**
 * Sends jobs' HTTP requests: one bounded keep-alive pool, connections warmed
 * ahead of a burst, redirects followed by hand, and the SSRF guard (private,
 * loopback and metadata addresses refused after DNS resolution and, for
 * literal hosts, already when a job is saved). Saved jobs' requests are
 * signed for their targets (RequestSigner).
 */
@Module({
  controllers: [TargetJwksController],
  providers: [ExecutorSettings, HttpExecutor, TargetPolicy, RequestSigner, TargetTokenKeysRepository],
  exports: [HttpExecutor, TargetPolicy],
})
export class ExecutorModule {}
