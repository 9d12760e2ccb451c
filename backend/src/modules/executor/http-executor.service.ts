import { Injectable, OnApplicationShutdown, Optional } from '@nestjs/common';
import { rootCertificates } from 'node:tls';
import { Agent } from 'undici';
import { AppConfig } from '../../config/app-config';
import { ExecutorSettings } from './executor-settings';
import { ConnectionGate } from './connection-gate';
import { DeadlineQueue, type Deadline } from './deadline-queue';
import { describeNoConnection, describeRequestError, describeStatus } from './failure-cause';
import { guardedLookup } from './guarded-lookup';
import { HopHandler, type HopResponse } from './hop-handler';
import { followRedirect } from './redirect-policy';
import { WarmConnector } from './warm-connector';
import { warmUp, type WarmUpOptions, type WarmUpTarget } from './warm-up';
import { RequestSigner, type RequestSigning } from './request-signer.service';
import { ForbiddenTargetError } from './target-address';
import { TargetPolicy } from './target-policy.service';
import { HTTP_METHODS, type HttpMethod, type ResponseRules } from '@cronbeam/shared/jobs/job-types';
import { compileResponseRules, responseRuleFailure, type ResponseCheck } from '@cronbeam/shared/jobs/response-rules';
import { parseRetryAfter, type FailureKind } from '@cronbeam/shared/jobs/retry-policy';
import { effectiveTimeoutMs } from '@cronbeam/shared/jobs/plan-timeout';

/** Redirects followed per execution, each one re-checked against the target rules and the redirect policy. */
export const MAX_REDIRECTS = 5;

/** Header carrying the run id, so a target can de-duplicate a delivery it already handled. */
export const EXECUTION_ID_HEADER = 'x-cronbeam-execution-id';

/** Headers the transport owns; a job may not set them. */
const TRANSPORT_HEADERS = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive', 'upgrade', 'expect', 'te', 'trailer', 'proxy-connection']);

export interface ExecutionRequest {
  executionId: string;
  url: string;
  method: HttpMethod;
  /** Null: the job's stored headers cannot be decrypted; the execution fails without sending anything. */
  headers: Record<string, string> | null;
  body: string;
  /** What counts as success; null or absent: any 2xx. */
  responseRules?: ResponseRules | null;
  /** The job's own time limit (at most the server's); null or absent: 30 s (DEFAULT_TIMEOUT_SECONDS), or the server's when lower. */
  timeoutMs?: number | null;
  /** Whose request it is: connections to a host are shared fairly among users. Absent: the service's own. */
  accountId?: string;
  /** A saved job's request is signed for its target (X-Cronbeam-Signature, and an identity token if the job asks). */
  signing?: RequestSigning | null;
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
  /**
   * How it failed, for the job's retry policy: no answer in time, no
   * connection, an HTTP status (responseCode), or a refusal nothing fixes.
   * Absent (an interrupted execution): `retryable` alone decides.
   */
  failureKind?: FailureKind | null;
  /** What the target's Retry-After asked for, in ms (429 and 5xx answers only). */
  retryAfterMs?: number | null;
  /** For an https URL that answered: when the certificate its origin presented expires. */
  certificateExpiresAt?: Date | null;
}

/** Where one hop of a request goes; origin and path are read off the URL once (each read builds a new string). */
export interface HopTarget {
  url: URL;
  origin: string;
  path: string;
}

function hopTarget(url: URL): HopTarget {
  return { url, origin: url.origin, path: url.pathname + url.search };
}

/**
 * A job whose headers (often the credentials for its target) cannot be decrypted is not sent without them:
 * the target would see an unauthenticated request, and the user a failure that hides the cause.
 */
const UNREADABLE_HEADERS =
  "Not sent: the job's stored headers cannot be decrypted with this server's encryption key; the operator must restore the key";

/** A job that asks for an identity token is not sent without one. */
const NO_IDENTITY_TOKEN = "Not sent: the key that signs identity tokens cannot be decrypted with this server's encryption key; the operator must restore the key";

/** The request as it goes on the wire, built once before the due instant. */
export interface PreparedRequest {
  /** The parsed URL, or null when it does not parse (the execution then fails with that reason). */
  target: HopTarget | null;
  method: HttpMethod;
  headers: Record<string, string>;
  body: string | undefined;
  check: ResponseCheck | null;
  timeoutMs: number;
  /** The user whose fair share of a host's connections it takes ('' for the service's own requests). */
  owner: string;
  /** Why it must not be sent at all (null: it may be). */
  refusal: string | null;
}

/** Raised when an execution's deadline passes; failure-cause names it a timeout. */
class ExecutionTimeoutError extends Error {
  override readonly name = 'TimeoutError';
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
  private readonly deadlines = new DeadlineQueue();
  private readonly connector: WarmConnector;
  private readonly gate: ConnectionGate;

  constructor(
    private readonly settings: ExecutorSettings,
    private readonly targets: TargetPolicy,
    config: AppConfig,
    @Optional() private readonly signer?: RequestSigner,
  ) {
    this.userAgent = `Cronbeam/1.0 (+${config.publicUrl})`;
    this.connector = new WarmConnector({
      timeout: settings.executionTimeoutMs,
      ...(settings.allowPrivateTargets ? {} : { lookup: guardedLookup(settings.privateTargetAllowlist) }),
      ...(settings.extraTargetCa ? { ca: [...rootCertificates, settings.extraTargetCa] } : {}),
    });
    this.gate = new ConnectionGate({ perOrigin: settings.connectionsPerOrigin, maxPerOrigin: settings.maxConnectionsPerOrigin }, this.deadlines);
    // The gate decides how many requests an origin gets at once; the pool never queues beyond it.
    this.agent = new Agent({
      connections: settings.maxConnectionsPerOrigin,
      keepAliveTimeout: 30_000,
      headersTimeout: settings.executionTimeoutMs,
      bodyTimeout: settings.executionTimeoutMs,
      connect: this.connector.connect,
    });
  }

  /**
   * Opens connections ahead of a burst: for each origin, as many as its
   * requests can use (up to the pool's limit) minus those already open.
   */
  warm(requestsByOrigin: ReadonlyMap<string, { url: URL; count: number }>): void {
    const stats = this.agent.stats as Record<string, { connected?: number } | undefined>;
    for (const [origin, { url, count }] of requestsByOrigin) {
      if (!this.isAllowedTarget(url)) continue;
      const open = (stats[origin]?.connected ?? 0) + this.connector.ready(url);
      const wanted = Math.min(count, this.settings.connectionsPerOrigin) - open;
      if (wanted > 0) this.connector.open(url, wanted);
    }
  }

  /** After the scheduler has drained its in-flight requests (it does so in onModuleDestroy). */
  /** Whether a new process warms up before its first instant (not under test). */
  get warmsUp(): boolean {
    return this.settings.warmUpRequests > 0;
  }

  /** The server's ceiling on any request's time limit (EXECUTION_TIMEOUT_MS); plans allow at most this. */
  get maxTimeoutMs(): number {
    return this.settings.executionTimeoutMs;
  }

  async onApplicationShutdown(): Promise<void> {
    this.gate.close();
    this.deadlines.clear();
    this.connector.close();
    // A request still open here has nobody waiting for it (a graceful stop recorded it as interrupted) and no
    // deadline left: closing would wait for its target, a hung one forever. It is cut instead.
    await this.agent.destroy();
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
    let refusal = request.headers === null ? UNREADABLE_HEADERS : null;
    if (request.signing && this.signer) {
      const signed = this.signer.headers(request.signing, request.executionId, request.method, request.url, sendsBody ? request.body : '');
      if (signed) Object.assign(headers, signed);
      else refusal ??= NO_IDENTITY_TOKEN;
    }
    return {
      target: URL.canParse(request.url) ? hopTarget(new URL(request.url)) : null,
      // The literal, not the string read from the database: V8 compares literals by reference, and undici's code
      // compiled for them (by the start-up warm-up or earlier bursts) would be thrown away for another kind of string.
      method: HTTP_METHODS.find((m) => m === request.method) ?? request.method,
      headers,
      body: sendsBody ? request.body : undefined,
      check: request.responseRules ? compileResponseRules(request.responseRules) : null,
      timeoutMs: effectiveTimeoutMs(request.timeoutMs ?? null, this.settings.executionTimeoutMs),
      owner: request.accountId ?? '',
      refusal,
    };
  }

  /** Sends a prepared job request; every hop's host is checked against the target rules. */
  execute(prepared: PreparedRequest): Promise<ExecutionResult> {
    return this.send(prepared, '');
  }

  /** The start-up warm-up (warm-up.ts) with up to `requests` requests, by default the settings' number. */
  warmUp(options: WarmUpOptions): Promise<number> {
    return warmUp(this.warmUpTarget(), { ...options, requests: options.requests ?? this.settings.warmUpRequests });
  }

  /** The pool, the connections opened ahead and the send path, as the warm-up drives them. */
  private warmUpTarget(): WarmUpTarget {
    return {
      connectionsPerOrigin: this.settings.connectionsPerOrigin,
      openConnections: (url, count) => this.connector.open(url, count),
      connectionsOpening: (url) => this.connector.pending(url),
      connectedTo: (origin) => (this.agent.stats as Record<string, { connected?: number } | undefined>)[origin]?.connected ?? 0,
      send: (request, trustedOrigin) => this.send(this.prepare(request), trustedOrigin),
    };
  }

  /** `trustedOrigin`: the warm-up's own sink, the one origin exempt from the target rules ('' for every job). */
  private async send(prepared: PreparedRequest, trustedOrigin: string): Promise<ExecutionResult> {
    const startedAt = new Date();
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    let hop: HopHandler | null = null;
    let expired = false;
    const onExpire = () => {
      expired = true;
      hop?.abort(new ExecutionTimeoutError());
    };
    // One time limit for the whole execution, redirects included, running only while a hop holds a connection
    // slot: time spent waiting for one behind other requests to the same host is not the target's slowness.
    let deadline: Deadline | null = null;
    let timeLeft = prepared.timeoutMs;
    let sentAt = started;
    const owner = prepared.owner;
    let { method, body } = prepared;
    let headers = prepared.headers;
    try {
      if (prepared.refusal) return failure(startedAt, elapsed(), null, prepared.refusal, false);
      if (!prepared.target) return failure(startedAt, elapsed(), null, "Request failed: Invalid URL", false);
      let target = prepared.target;
      for (let hops = 0; ; hops++) {
        const url = target.url;
        if (target.origin !== trustedOrigin) this.assertAllowedTarget(url);
        if (expired) throw new ExecutionTimeoutError();
        const { origin, path } = target;
        if (!this.gate.tryTake(origin, owner)) {
          if (deadline) {
            deadline.cancel();
            deadline = null;
            timeLeft -= performance.now() - sentAt;
          }
          const budget = Math.min(prepared.timeoutMs, this.settings.connectionWaitMs);
          if (!(await this.gate.wait(origin, owner, budget))) {
            const cause = describeNoConnection(url.host, budget, hops > 0);
            return failure(startedAt, elapsed(), null, cause.message, cause.retryable, cause.kind);
          }
          sentAt = performance.now();
        }
        deadline ??= this.deadlines.add(sentAt + timeLeft, onExpire);
        let response: HopResponse;
        try {
          response = await new Promise<HopResponse>((resolve, reject) => {
            hop = new HopHandler((error, answer) => (error ? reject(error) : resolve(answer!)));
            this.agent.dispatch({ origin, path, method, headers, body }, hop);
          });
        } finally {
          this.gate.release(origin, owner);
        }
        const { statusCode, location } = response;
        if (statusCode >= 300 && statusCode < 400 && location) {
          if (hops >= MAX_REDIRECTS) {
            return failure(startedAt, elapsed(), statusCode, `Too many redirects: more than ${MAX_REDIRECTS}`, false);
          }
          const redirect = followRedirect(url, location, statusCode, method, body !== undefined);
          if ('refusal' in redirect) return failure(startedAt, elapsed(), statusCode, redirect.refusal, false);
          if (!redirect.keepsJobHeaders) {
            // Another origin gets only what the executor itself sends: never the job's cookies, keys or custom headers.
            headers = { 'user-agent': this.userAgent, [EXECUTION_ID_HEADER]: prepared.headers[EXECUTION_ID_HEADER] };
          } else if (redirect.dropsBody && 'content-type' in headers) {
            headers = { ...headers };
            delete headers['content-type'];
          }
          if (redirect.dropsBody) body = undefined;
          method = redirect.method;
          target = hopTarget(redirect.url);
          continue;
        }
        const cause = describeStatus(statusCode);
        const responseBody = response.body.text(response.contentType);
        // A job's rules replace the 2xx test; a broken rule is retried only when the status itself would be.
        const ruleFailure = prepared.check ? responseRuleFailure(prepared.check, statusCode, responseBody) : null;
        const failed = prepared.check ? ruleFailure !== null : cause !== null;
        return {
          success: !failed,
          startedAt,
          responseCode: statusCode,
          durationMs: elapsed(),
          responseBody,
          errorMessage: prepared.check ? ruleFailure : (cause?.message ?? null),
          retryable: failed && (cause?.retryable ?? false),
          failureKind: failed ? 'status' : null,
          retryAfterMs: failed ? parseRetryAfter(response.retryAfter, Date.now()) : null,
          // The job's own origin: the one whose certificate its owner looks after (a redirect's target may be anyone's).
          certificateExpiresAt: prepared.target.url.protocol === 'https:' ? this.connector.certificateExpiry(prepared.target.url) : null,
        };
      }
    } catch (error) {
      const cause = describeRequestError(error, prepared.timeoutMs);
      return failure(startedAt, elapsed(), null, cause.message, cause.retryable, cause.kind);
    } finally {
      deadline?.cancel();
    }
  }

  /** Literal IP targets bypass DNS, so they are checked here (with localhost and metadata names); other names by the guarded lookup. */
  private assertAllowedTarget(url: URL): void {
    if (!this.isAllowedTarget(url)) throw new ForbiddenTargetError(url.hostname, false);
  }

  private isAllowedTarget(url: URL): boolean {
    return this.targets.isAllowedHost(url.hostname);
  }
}

function failure(startedAt: Date, durationMs: number, responseCode: number | null, errorMessage: string, retryable: boolean, failureKind: FailureKind = 'final'): ExecutionResult {
  return { success: false, startedAt, responseCode, durationMs, responseBody: null, errorMessage, retryable, failureKind, retryAfterMs: null };
}
