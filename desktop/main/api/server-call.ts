import type { FeedCredentials } from '../events/event-feed';

/** Where and as whom the main process calls the server's /api: the session's bearer token, refreshed once on a 401. */
export interface ServerAccess {
  serverUrl: () => string;
  credentials: FeedCredentials;
  fetch: typeof fetch;
}

/** One JSON call to the server; an error answer throws with the server's `detail`. */
export async function callServer<T>(access: ServerAccess, method: string, path: string, retried = false): Promise<T> {
  const token = await access.credentials.accessToken();
  if (!token) throw new Error('Signed out');
  const response = await access.fetch(`${access.serverUrl()}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
  if (response.status === 401 && !retried && (await access.credentials.refresh())) return callServer<T>(access, method, path, true);
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
    throw new Error(typeof body.detail === 'string' ? body.detail : `HTTP ${response.status}`);
  }
  return (await response.json()) as T;
}
