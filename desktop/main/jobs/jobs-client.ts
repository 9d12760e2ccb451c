import type { Job } from '@shared/jobs/job-types';
import type { FeedCredentials } from '../events/event-feed';

/** The job calls the tray makes, with the session's bearer token. */
export class JobsClient {
  constructor(
    private readonly serverUrl: () => string,
    private readonly credentials: FeedCredentials,
    private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  ) {}

  list(): Promise<Job[]> {
    return this.call<Job[]>('GET', '/api/jobs');
  }

  runNow(jobId: string): Promise<unknown> {
    return this.call('POST', `/api/jobs/${encodeURIComponent(jobId)}/run`);
  }

  pause(jobId: string): Promise<Job> {
    return this.call<Job>('POST', `/api/jobs/${encodeURIComponent(jobId)}/pause`);
  }

  private async call<T>(method: string, path: string, retried = false): Promise<T> {
    const token = await this.credentials.accessToken();
    if (!token) throw new Error('Signed out');
    const response = await this.fetchImpl(`${this.serverUrl()}${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    if (response.status === 401 && !retried && (await this.credentials.refresh())) return this.call<T>(method, path, true);
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { detail?: unknown };
      throw new Error(typeof body.detail === 'string' ? body.detail : `HTTP ${response.status}`);
    }
    return (await response.json()) as T;
  }
}
