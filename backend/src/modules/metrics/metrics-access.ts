import { createHash, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';

/** Where /metrics may be read, decided once from the environment. */
export type MetricsExposure =
  /** On its own loopback port (METRICS_PORT); the public port answers 404. */
  | { kind: 'loopback-port'; port: number }
  /** On the public port, to callers presenting METRICS_TOKEN as a bearer token. */
  | { kind: 'token' }
  /** On the public port to anyone: outside production, with neither variable set. */
  | { kind: 'open' }
  /** Nowhere: production with neither variable set (metrics name jobs' outcomes and load). */
  | { kind: 'off' };

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * Who may read the Prometheus metrics. They reveal traffic, failure rates and
 * process internals, so production never serves them to the open internet:
 * a scraper either presents METRICS_TOKEN or reaches a port bound to loopback.
 */
@Injectable()
export class MetricsAccess {
  readonly exposure: MetricsExposure;
  private readonly expected: Buffer | null;

  constructor(config: AppConfig) {
    const { METRICS_PORT, METRICS_TOKEN } = config.env;
    this.expected = METRICS_TOKEN ? digest(METRICS_TOKEN) : null;
    if (METRICS_PORT) this.exposure = { kind: 'loopback-port', port: METRICS_PORT };
    else if (METRICS_TOKEN) this.exposure = { kind: 'token' };
    else this.exposure = config.isProduction ? { kind: 'off' } : { kind: 'open' };
  }

  /** What the public port answers to a request for /metrics with this Authorization header. */
  publicAnswer(authorization: string | undefined): 'serve' | 'unauthorized' | 'not-found' {
    switch (this.exposure.kind) {
      case 'open':
        return 'serve';
      case 'token':
        return this.tokenMatches(authorization) ? 'serve' : 'unauthorized';
      default:
        return 'not-found';
    }
  }

  private tokenMatches(authorization: string | undefined): boolean {
    const sent = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
    // Digests have equal lengths, so the comparison takes the same time whatever was sent.
    return sent !== undefined && this.expected !== null && timingSafeEqual(digest(sent), this.expected);
  }
}
