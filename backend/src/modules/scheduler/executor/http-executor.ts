import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import { Agent, type Dispatcher } from 'undici';
import { AppConfig } from '../../../config/app-config';
import { SchedulerSettings } from '../scheduler-settings';
import { captureBody } from './response-capture';
import { describeRequestError, describeStatus } from './failure-cause';
import { guardedLookup } from './guarded-lookup';
import { ForbiddenTargetError, isForbiddenAddress, isLiteralAddress } from './target-address';
import type { HttpMethod } from '@shared/jobs/job-types';

/** Redirects followed per execution, each one re-checked against the target rules. */
export const MAX_REDIRECTS = 5;

/** Header carrying the run id, so a target can de-duplicate a delivery it already handled. */
export const EXECUTION_ID_HEADER = 'x-cronbeam-execution-id';

/** Headers the transport owns; a job may not set them. */
const TRANSPORT_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer', 'proxy-connection']);

export interface ExecutionRequest {
  executionId: string;
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string;
}

export interface ExecutionResult {
  success: boolean;
  startedAt: Date;
  responseCode: number | null;
  durationMs: number;
  responseBody: string | null;
  errorMessage: string | null;
  /** A failure worth retrying: timeout, DNS, connection, TLS, 5xx. */
  retryable: boolean;
}

/** The request as it goes on the wire, built once before the due instant. */
export interface PreparedRequest {
  url: string;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
}

/**
 * Sends one job's HTTP request over a shared, bounded, keep-alive connection
 * pool and reports what happened. Never throws: every failure becomes a result
 * whose message names the cause.
 */
@Injectable()
export class HttpExecutor implements OnApplicationShutdown {
  private readonly agent: Agent;
  private readonly userAgent: string;

  constructor(
    private readonly settings: SchedulerSettings,
    config: AppConfig,
  ) {
    this.userAgent = `Cronbeam/1.0 (+${config.publicUrl})`;
    this.agent = new Agent({
      connections: settings.connectionsPerOrigin,
      keepAliveTimeout: 30_000,
      headersTimeout: settings.executionTimeoutMs,
      bodyTimeout: settings.executionTimeoutMs,
      connect: {
        timeout: settings.executionTimeoutMs,
        ...(settings.allowPrivateTargets ? {} : { lookup: guardedLookup(settings.privateTargetAllowlist) }),
      },
    });
  }

  /** After the scheduler has drained its in-flight requests (it does so in onModuleDestroy). */
  async onApplicationShutdown(): Promise<void> {
    await this.agent.close();
  }

  /** Parses the URL and assembles headers ahead of time, so the due instant only pays for the send. */
  prepare(request: ExecutionRequest): PreparedRequest {
    const headers: Record<string, string> = { 'user-agent': this.userAgent };
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      const lower = name.toLowerCase();
      if (!TRANSPORT_HEADERS.has(lower) && lower !== EXECUTION_ID_HEADER) headers[lower] = value;
    }
    headers[EXECUTION_ID_HEADER] = request.executionId;
    const sendsBody = request.body !== '' && request.method !== 'GET' && request.method !== 'HEAD';
    return { url: request.url, method: request.method, headers, body: sendsBody ? request.body : undefined };
  }

  async execute(prepared: PreparedRequest): Promise<ExecutionResult> {
    const startedAt = new Date();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const signal = AbortSignal.timeout(this.settings.executionTimeoutMs);
    let { method, body } = prepared;
    const headers = { ...prepared.headers };
    try {
      let url = new URL(prepared.url);
      for (let hop = 0; ; hop++) {
        this.assertAllowedTarget(url);
        const response = await this.agent.request({
          origin: url.origin,
          path: url.pathname + url.search,
          method,
          headers,
          body,
          signal,
        });
        const location = header(response, 'location');
        if (response.statusCode >= 300 && response.statusCode < 400 && location) {
          await response.body.dump();
          if (hop >= MAX_REDIRECTS) {
            return failure(startedAt, elapsed(), response.statusCode, `Too many redirects: more than ${MAX_REDIRECTS}`, false);
          }
          const next = new URL(location, url);
          if (next.protocol !== 'http:' && next.protocol !== 'https:') {
            return failure(startedAt, elapsed(), response.statusCode, `Redirect to an unsupported URL scheme (${next.protocol})`, false);
          }
          // 303 (and 301/302 for non-GET, as browsers do) turn into a GET without a body.
          if (response.statusCode === 303 || ((response.statusCode === 301 || response.statusCode === 302) && method !== 'HEAD')) {
            method = method === 'HEAD' ? 'HEAD' : 'GET';
            body = undefined;
            delete headers['content-type'];
          }
          if (next.origin !== url.origin) delete headers.authorization; // never leak credentials to another host
          url = next;
          continue;
        }
        const responseBody = await captureBody(response.body, header(response, 'content-type'));
        const cause = describeStatus(response.statusCode);
        return {
          success: cause === null,
          startedAt,
          responseCode: response.statusCode,
          durationMs: elapsed(),
          responseBody,
          errorMessage: cause?.message ?? null,
          retryable: cause?.retryable ?? false,
        };
      }
    } catch (error) {
      const cause = describeRequestError(error, this.settings.executionTimeoutMs);
      return failure(startedAt, elapsed(), null, cause.message, cause.retryable);
    }
  }

  /** Literal IP targets bypass DNS, so they are checked here; names are checked by the guarded lookup. */
  private assertAllowedTarget(url: URL): void {
    const host = url.hostname;
    if (this.settings.allowPrivateTargets || this.settings.privateTargetAllowlist.has(host.toLowerCase())) return;
    if (isLiteralAddress(host) ? isForbiddenAddress(host) : host === 'localhost' || host.endsWith('.localhost')) {
      throw new ForbiddenTargetError(host, host);
    }
  }
}

function header(response: Dispatcher.ResponseData, name: string): string | undefined {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function failure(startedAt: Date, durationMs: number, responseCode: number | null, errorMessage: string, retryable: boolean): ExecutionResult {
  return { success: false, startedAt, responseCode, durationMs, responseBody: null, errorMessage, retryable };
}
