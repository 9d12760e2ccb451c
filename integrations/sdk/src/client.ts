import createClient, { type Client, type Middleware } from 'openapi-fetch';
import { CronbeamApiError, CronbeamConnectionError, detailOf } from './errors';
import type { paths } from './generated/prog-api';
import { retryAfterMs, retryingFetch, type RetryOptions } from './retry';

export interface CronbeamClientOptions {
  /** Where Cronbeam runs, e.g. https://cronbeam.example (a trailing /prog is accepted). */
  baseUrl: string;
  /** An API key from the profile page (API Keys). */
  apiKey: string;
  /** Your user id: sent as X-User-ID with X-API-Key; without it the key goes as a bearer token. */
  userId?: string | null;
  retry?: RetryOptions;
  /** Per attempt; default 60 000 ms (running a job now waits for its target). */
  timeoutMs?: number;
  /** The fetch to send with (default: the global one). */
  fetch?: typeof fetch;
}

/** The /prog API client: every path, parameter, body and answer typed from the OpenAPI document. */
export type CronbeamClient = Client<paths>;

/** Origin plus path prefix, without a trailing slash or /prog (the document's paths start with /prog). */
export function normaliseBaseUrl(raw: string): string {
  const url = new URL(raw.trim());
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`'${raw}' is not an http:// or https:// URL`);
  return `${url.origin}${url.pathname.replace(/(?<!\/)\/+$/, '').replace(/\/prog$/, '')}`;
}

/** Turns every error status into a CronbeamApiError carrying the API's detail, so callers never read an error as data. */
const throwOnErrorStatus: Middleware = {
  async onResponse({ request, response }) {
    if (response.ok) return undefined;
    const text = await response.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's page, say): detailOf quotes the start of the text.
    }
    const waitMs = retryAfterMs(response.headers.get('retry-after'));
    throw new CronbeamApiError(response.status, detailOf(body, response.status), request.method, new URL(request.url).pathname, waitMs === null ? null : Math.ceil(waitMs / 1000));
  },
};

/**
 * A typed client for the /prog API (openapi-fetch over the generated types):
 * `await client.GET('/prog/jobs/{job_id}', { params: { path: { job_id } } })`.
 * Error statuses throw CronbeamApiError (after the retries 429 and 503 get);
 * an unreachable server throws CronbeamConnectionError.
 */
export function createCronbeamClient(options: CronbeamClientOptions): CronbeamClient {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const base = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const send = async (request: Request) => {
    try {
      return await base(request, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      throw new CronbeamConnectionError(baseUrl, error);
    }
  };
  const headers: Record<string, string> = options.userId ? { 'X-API-Key': options.apiKey, 'X-User-ID': options.userId } : { Authorization: `Bearer ${options.apiKey}` };
  const client = createClient<paths>({ baseUrl, headers, fetch: retryingFetch(send as typeof fetch, options.retry) });
  client.use(throwOnErrorStatus);
  return client;
}

/**
 * The answer's data, typed without `undefined`: the client throws on error
 * statuses, so a call that returns has data.
 */
export async function unwrap<Result extends { data?: unknown; response: Response }>(call: Promise<Result>): Promise<Exclude<Result['data'], undefined>> {
  const { data, response } = await call;
  if (data === undefined) throw new CronbeamApiError(response.status, `HTTP ${response.status} without a body`, 'GET', new URL(response.url || 'http://invalid/').pathname);
  return data as Exclude<Result['data'], undefined>;
}
