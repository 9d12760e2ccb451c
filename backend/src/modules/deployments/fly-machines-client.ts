import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { withoutTrailingSlashes } from '@cronbeam/shared/text/trailing-slashes';

/** Fly answered with an error (after retries for 429 and 5xx), or could not be reached. */
export class FlyApiError extends Error {
  constructor(
    /** HTTP status; 0 when Fly was not reached. */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'FlyApiError';
  }

  get isNotFound(): boolean {
    return this.status === 404;
  }
}

export interface FlyMachineConfig {
  image: string;
  env: Record<string, string>;
  guest: { cpu_kind: 'shared'; cpus: number; memory_mb: number };
  mounts: Array<{ volume: string; path: string }>;
  services: Array<{
    protocol: 'tcp';
    internal_port: number;
    ports: Array<{ port: number; handlers: string[]; force_https?: boolean }>;
  }>;
  restart: { policy: 'always' | 'on-failure' | 'no' };
}

export interface FlyMachine {
  id: string;
  instance_id?: string;
  state: string;
}

/**
 * What provisioning needs of the Fly Machines REST API, for one token. The
 * token stays inside the session object; nothing else sees it.
 */
export interface FlySession {
  createApp(appName: string, orgSlug: string): Promise<void>;
  deleteApp(appName: string): Promise<void>;
  allocateIp(appName: string, type: 'v6' | 'shared_v4'): Promise<{ ip: string }>;
  releaseIp(appName: string, ip: string): Promise<void>;
  createVolume(appName: string, volume: { name: string; region: string; size_gb: number }): Promise<{ id: string }>;
  deleteVolume(appName: string, volumeId: string): Promise<void>;
  createMachine(appName: string, machine: { name: string; region: string; config: FlyMachineConfig }): Promise<FlyMachine>;
  /** True when the machine reached the state within `timeoutSeconds` (at most 60, Fly's limit); false when Fly timed out. */
  waitForState(appName: string, machineId: string, state: 'started', timeoutSeconds: number, instanceId?: string): Promise<boolean>;
  destroyMachine(appName: string, machineId: string): Promise<void>;
}

export interface FlyMachinesApi {
  session(token: string, signal?: AbortSignal): FlySession;
}

/** Nest token for the FlyMachinesApi implementation. */
export const FLY_MACHINES_API = Symbol('FLY_MACHINES_API');

const MAX_ATTEMPTS = 5;
/** A Retry-After longer than this is not honoured in full: provisioning would look stuck. */
const MAX_RETRY_WAIT_MS = 30_000;
/** Wait requests block up to 60 s on Fly's side; every other call answers quickly. */
const REQUEST_TIMEOUT_MS = 75_000;

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason as Error);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/** Fly's error bodies are `{"error": "..."}`; anything else is summarised by status. */
function errorText(status: number, body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    const text = typeof parsed.error === 'string' ? parsed.error : typeof parsed.message === 'string' ? parsed.message : '';
    if (text) return `Fly.io answered ${status}: ${text.slice(0, 300)}`;
  } catch {
    // not JSON
  }
  return `Fly.io answered ${status}`;
}

/**
 * The Machines REST API over fetch. 429 and 5xx answers (and network
 * failures) are retried with exponential backoff from FLY_RETRY_BASE_MS,
 * honouring Retry-After; error messages never contain the token.
 */
@Injectable()
export class FlyMachinesClient implements FlyMachinesApi {
  private readonly base: string;
  private readonly retryBaseMs: number;

  constructor(config: AppConfig) {
    this.base = withoutTrailingSlashes(config.env.FLY_API_BASE);
    this.retryBaseMs = config.env.FLY_RETRY_BASE_MS;
  }

  session(token: string, signal?: AbortSignal): FlySession {
    const call = <T>(method: string, path: string, body?: unknown, okStatuses: number[] = []) =>
      this.request<T>(token, method, path, body, okStatuses, signal);
    const app = (name: string) => `/v1/apps/${encodeURIComponent(name)}`;
    return {
      createApp: async (appName, orgSlug) => {
        await call('POST', '/v1/apps', { app_name: appName, org_slug: orgSlug });
      },
      deleteApp: async (appName) => {
        await call('DELETE', app(appName));
      },
      allocateIp: (appName, type) => call<{ ip: string }>('POST', `${app(appName)}/ip_assignments`, { type }),
      releaseIp: async (appName, ip) => {
        await call('DELETE', `${app(appName)}/ip_assignments/${encodeURIComponent(ip)}`);
      },
      createVolume: (appName, volume) => call<{ id: string }>('POST', `${app(appName)}/volumes`, volume),
      deleteVolume: async (appName, volumeId) => {
        await call('DELETE', `${app(appName)}/volumes/${encodeURIComponent(volumeId)}`);
      },
      createMachine: (appName, machine) => call<FlyMachine>('POST', `${app(appName)}/machines`, machine),
      waitForState: async (appName, machineId, state, timeoutSeconds, instanceId) => {
        const query = new URLSearchParams({ state, timeout: String(Math.max(1, Math.min(60, Math.round(timeoutSeconds)))) });
        if (instanceId) query.set('instance_id', instanceId);
        // 408 is Fly's "not in that state yet" when the wait times out.
        const result = await call<{ ok?: boolean } | { timedOut: true }>('GET', `${app(appName)}/machines/${encodeURIComponent(machineId)}/wait?${query}`, undefined, [408]);
        return !(result && 'timedOut' in result);
      },
      destroyMachine: async (appName, machineId) => {
        await call('DELETE', `${app(appName)}/machines/${encodeURIComponent(machineId)}?force=true`);
      },
    };
  }

  private async request<T>(token: string, method: string, path: string, body: unknown, okStatuses: number[], signal?: AbortSignal): Promise<T> {
    let lastError: FlyApiError | null = null;
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      let status = 0;
      let text = '';
      let retryAfterMs: number | null = null;
      try {
        const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
        const response = await fetch(this.base + path, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
        status = response.status;
        text = await response.text();
        const retryAfter = Number(response.headers.get('retry-after'));
        if (Number.isFinite(retryAfter) && retryAfter > 0) retryAfterMs = Math.min(MAX_RETRY_WAIT_MS, retryAfter * 1000);
      } catch (error) {
        if (signal?.aborted) throw signal.reason as Error;
        lastError = new FlyApiError(0, `Fly.io could not be reached (${(error as Error).name === 'TimeoutError' ? 'timed out' : 'network error'})`);
      }
      if (status >= 200 && status < 300) return (text ? JSON.parse(text) : {}) as T;
      if (okStatuses.includes(status)) return { timedOut: true } as T;
      if (status !== 0) lastError = new FlyApiError(status, this.withoutToken(errorText(status, text), token));
      const retryable = status === 0 || status === 429 || status >= 500;
      if (!retryable || attempt === MAX_ATTEMPTS) break;
      await sleep(retryAfterMs ?? this.retryBaseMs * 2 ** (attempt - 1), signal);
    }
    throw lastError ?? new FlyApiError(0, 'Fly.io could not be reached');
  }

  /** Fly does not echo tokens, but an error text is shown to the user and stored: make sure. */
  private withoutToken(text: string, token: string): string {
    return token ? text.split(token).join('[redacted]') : text;
  }
}
