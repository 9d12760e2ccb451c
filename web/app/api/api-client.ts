import { accountHeader } from '../accounts/current-account';
import { apiBase } from '../platform/platform';
import { useSession } from '../session/session-store';
import { ApiRequestError } from './api-error';
import { ERROR_TEXT } from './error-messages';
import { withRetry } from './retry';

export interface RequestOptions {
  body?: unknown;
  /** Public calls send no bearer header. */
  auth?: boolean;
  /**
   * What a 401 means for this call: 'session' (default) ends the session and
   * sends the user to /login; 'report' only fails the call (the logs calls).
   */
  on401?: 'session' | 'report';
  /** Retry on network errors and server errors with the general retry policy (retry.ts). */
  retry?: boolean;
  signal?: AbortSignal;
  /** Answer the body as text (a CSV export) rather than parsed JSON. */
  text?: boolean;
}

type UnauthorizedHandler = (message: string) => void;
let onUnauthorized: UnauthorizedHandler = () => undefined;

/** The app installs how a lost session is handled (clear it, navigate to /login). */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

/** Worth another attempt: the server was not reached, timed out, or failed on its side. */
export function isTransient(error: unknown): boolean {
  return error instanceof ApiRequestError && (error.status === 0 || error.status === 408 || error.status >= 500);
}

async function send<T>(method: string, path: string, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.auth !== false) {
    const token = useSession.getState().accessToken;
    if (!token) {
      if (options.on401 !== 'report') onUnauthorized(ERROR_TEXT.sessionExpired);
      throw new ApiRequestError(401, options.on401 === 'report' ? ERROR_TEXT.authRequiredLogs : ERROR_TEXT.authRequired);
    }
    headers.authorization = `Bearer ${token}`;
    Object.assign(headers, accountHeader());
  }
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(apiBase() + path, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      credentials: 'include',
      signal: options.signal,
    });
  } catch (error) {
    if (options.signal?.aborted) throw error;
    throw new ApiRequestError(0, ERROR_TEXT.backendUnreachable);
  }
  const text = await response.text();
  const parsed = text ? safeJson(text) : undefined;
  if (response.ok) return (options.text ? text : parsed) as T;
  if (response.status === 401 && options.auth !== false) {
    if (options.on401 === 'report') throw new ApiRequestError(401, ERROR_TEXT.logsAuthFailed);
    onUnauthorized(ERROR_TEXT.sessionExpired);
    throw new ApiRequestError(401, ERROR_TEXT.sessionExpired);
  }
  const detail = parsed && typeof parsed === 'object' && 'detail' in parsed ? (parsed as { detail: unknown }).detail : undefined;
  throw new ApiRequestError(response.status, detail);
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Calls the API: JSON in and out, bearer header from the session, errors as ApiRequestError. */
export function apiRequest<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const call = () => send<T>(method, path, options);
  return options.retry ? withRetry(call, { shouldRetry: isTransient }) : call();
}
