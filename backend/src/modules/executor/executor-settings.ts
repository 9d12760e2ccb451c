import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** How executions reach their targets, read from the validated environment. */
@Injectable()
export class ExecutorSettings {
  readonly allowPrivateTargets: boolean;
  /** Host names the operator trusts even though they resolve to internal addresses. */
  readonly privateTargetAllowlist: ReadonlySet<string>;
  /** Per-request timeout of an execution (connect, redirects, response). */
  readonly executionTimeoutMs: number;
  /** Keep-alive connections per target origin. */
  readonly connectionsPerOrigin: number;

  constructor(config: AppConfig) {
    const env = config.env;
    this.allowPrivateTargets = env.ALLOW_PRIVATE_TARGETS;
    this.privateTargetAllowlist = new Set(
      env.PRIVATE_TARGET_ALLOWLIST.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
    this.executionTimeoutMs = env.EXECUTION_TIMEOUT_MS;
    this.connectionsPerOrigin = env.EXECUTOR_CONNECTIONS_PER_ORIGIN;
  }
}
