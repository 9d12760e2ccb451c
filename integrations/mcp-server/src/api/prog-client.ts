import type { Job, JobDefinition, JobLogEntry, JobLogsResponse } from '@shared/jobs/job-types';
import type { CronbeamSettings } from '../config';
import { CronbeamError, errorFromResponse } from './cronbeam-errors';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The /prog API over fetch. One instance per server process; every call reads
 * the same settings, so a configuration problem fails each tool call with the
 * same message rather than the process.
 */
export class ProgClient {
  constructor(
    private readonly settings: CronbeamSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  get baseUrl(): string {
    return this.settings.baseUrl;
  }

  get hasUserId(): boolean {
    return this.settings.userId !== null;
  }

  /** The unauthenticated health route: tells "service down" from "wrong key". */
  ping(): Promise<{ message: string }> {
    return this.call('GET', '/prog/ping', undefined, 'Ping', false);
  }

  listJobs(): Promise<Job[]> {
    return this.call('GET', '/prog/jobs', undefined, 'List jobs');
  }

  getJob(jobId: string): Promise<Job> {
    return this.call('GET', jobPath(jobId), undefined, `Job ${jobId}`);
  }

  createJob(definition: JobDefinition): Promise<Job> {
    return this.call('POST', '/prog/jobs', definition, 'Create job');
  }

  /** PUT replaces the whole definition. */
  replaceJob(jobId: string, definition: JobDefinition): Promise<Job> {
    return this.call('PUT', jobPath(jobId), definition, `Job ${jobId}`);
  }

  deleteJob(jobId: string): Promise<{ message: string }> {
    return this.call('DELETE', jobPath(jobId), undefined, `Job ${jobId}`);
  }

  pauseJob(jobId: string): Promise<Job> {
    return this.call('POST', `${jobPath(jobId)}/pause`, undefined, `Job ${jobId}`);
  }

  resumeJob(jobId: string): Promise<Job> {
    return this.call('POST', `${jobPath(jobId)}/resume`, undefined, `Job ${jobId}`);
  }

  /** Executes the job once now and answers that execution (a manual run, counted in the quota). */
  runJobNow(jobId: string): Promise<JobLogEntry> {
    return this.call('POST', `${jobPath(jobId)}/run`, undefined, `Job ${jobId}`);
  }

  /** The latest finished executions, newest first. */
  async jobLogs(jobId: string): Promise<JobLogEntry[]> {
    return (await this.call<JobLogsResponse>('GET', `${jobPath(jobId)}/logs`, undefined, `Job ${jobId}`)).logs;
  }

  /** Headers for a call; throws the configuration problems that stop it (only the URL's for the unauthenticated ping). */
  private headersFor(authenticated: boolean): Record<string, string> {
    const { settings } = this;
    const blocking = authenticated ? settings.problems : settings.urlProblem ? [settings.urlProblem] : [];
    if (blocking.length > 0 || (authenticated && !settings.apiKey)) {
      throw new CronbeamError('configuration', `The Cronbeam MCP server is not configured: ${blocking.join(' ')}`);
    }
    if (!authenticated) return { accept: 'application/json' };
    // The guard accepts the key as a bearer token; X-User-ID, when given, must name the key's owner.
    return { accept: 'application/json', authorization: `Bearer ${settings.apiKey}`, ...(settings.userId ? { 'x-user-id': settings.userId } : {}) };
  }

  private async call<T>(method: Method, path: string, body: unknown, what: string, authenticated = true): Promise<T> {
    const headers = this.headersFor(authenticated);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.settings.baseUrl}${path}`;
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        // A redirect would resend the key to another address or turn a POST into a GET: CRONBEAM_URL must be the API itself.
        redirect: 'error',
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.settings.timeoutMs} ms` : describeNetworkError(error);
      throw new CronbeamError(
        'unreachable',
        `Cannot reach Cronbeam at ${this.settings.baseUrl} (${reason}). Check CRONBEAM_URL; if it is right, the service may be starting: try again in a few seconds.`,
      );
    }
    const text = await response.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!response.ok) {
      const detail = parsed && typeof parsed === 'object' && 'detail' in parsed ? (parsed as { detail: unknown }).detail : text.slice(0, 500) || response.statusText;
      throw errorFromResponse(response.status, detail, response.headers.get('retry-after'), what);
    }
    if (parsed === null) {
      throw new CronbeamError('server_error', `Cronbeam answered ${response.status} without JSON at ${url}; is CRONBEAM_URL the API's address?`, response.status);
    }
    return parsed as T;
  }
}

/** Ids travel in the path: anything odd is escaped, so an id can never reach another route. */
function jobPath(jobId: string): string {
  return `/prog/jobs/${encodeURIComponent(jobId)}`;
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : null;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code ? `${code}: ${message}` : message;
}
