import { readFileSync } from 'node:fs';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { connectionWaitMs } from '../../config/shutdown-budget';

/**
 * Requests a new process sends to a loopback sink before its first instant:
 * enough for V8 to have compiled the send path (a cold process's first burst
 * of 1,000 ran 4-6 times slower than the same burst later; 4,000-8,000
 * warm-up requests brought it level), about a second of one core.
 */
const WARM_UP_REQUESTS = 8_000;

/** How executions reach their targets, read from the validated environment. */
@Injectable()
export class ExecutorSettings {
  readonly allowPrivateTargets: boolean;
  /** Host names the operator trusts even though they resolve to internal addresses. */
  readonly privateTargetAllowlist: ReadonlySet<string>;
  /** CA certificates (PEM) trusted for targets besides Node's public roots; null: the public roots only. */
  readonly extraTargetCa: string | null;
  /** Per-request timeout of an execution (connect, redirects, response). */
  readonly executionTimeoutMs: number;
  /** Keep-alive connections per target origin while it answers (ConnectionGate grows this for slow origins). */
  readonly connectionsPerOrigin: number;
  /** Connections per target origin at most, however slow it is; one user holds at most half of them. */
  readonly maxConnectionsPerOrigin: number;
  /** How long a request may wait for a connection slot before it is reported as not sent (see connectionWaitMs). */
  readonly connectionWaitMs: number;
  /** Requests the start-up warm-up sends (HttpExecutor.warmUp); none under test, where servers start many times a run. */
  readonly warmUpRequests: number;

  constructor(config: AppConfig) {
    const env = config.env;
    this.allowPrivateTargets = env.ALLOW_PRIVATE_TARGETS;
    this.privateTargetAllowlist = new Set(
      env.PRIVATE_TARGET_ALLOWLIST.split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    );
    // Read once at start: a file that cannot be read stops the start instead of failing every https run later.
    this.extraTargetCa = env.TARGET_CA_FILE ? readFileSync(env.TARGET_CA_FILE, 'utf8') : null;
    this.executionTimeoutMs = env.EXECUTION_TIMEOUT_MS;
    this.connectionsPerOrigin = env.EXECUTOR_CONNECTIONS_PER_ORIGIN;
    this.maxConnectionsPerOrigin = Math.max(env.EXECUTOR_MAX_CONNECTIONS_PER_ORIGIN, env.EXECUTOR_CONNECTIONS_PER_ORIGIN);
    this.connectionWaitMs = connectionWaitMs(env);
    this.warmUpRequests = env.NODE_ENV === 'test' ? 0 : WARM_UP_REQUESTS;
  }
}
