import type { Job, JobDefinition, JobLogEntry, JobLogsResponse } from '@shared/jobs/job-types';
import type { Monitor, MonitorEvent } from '@shared/notifications/monitors';
import type { CronbeamSettings } from '../config';
import { type CallSubject, CronbeamError, errorFromResponse } from './cronbeam-errors';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * The /prog API over fetch. One instance per server process; every call reads
 * the same settings, so a configuration problem fails each tool call with the
 * same message rather than the process.
 */
export class ProgClient {
  constructor(private readonly settings: CronbeamSettings) {}

  get baseUrl(): string {
    return this.settings.baseUrl;
  }

  get hasUserId(): boolean {
    return this.settings.userId !== null;
  }

  /** The unauthenticated health route: tells "service down" from "wrong key". */
  ping(): Promise<{ message: string }> {
    return this.call('GET', '/prog/ping', undefined, null, false);
  }

  async listJobs(): Promise<Job[]> {
    const jobs = await this.call<unknown>('GET', '/prog/jobs', undefined, null);
    if (!Array.isArray(jobs)) throw this.notCronbeam();
    return jobs as Job[];
  }

  getJob(jobId: string): Promise<Job> {
    return this.call('GET', jobPath(jobId), undefined, job(jobId));
  }

  createJob(definition: JobDefinition): Promise<Job> {
    return this.call('POST', '/prog/jobs', definition, null);
  }

  /** PUT replaces the whole definition. */
  replaceJob(jobId: string, definition: JobDefinition): Promise<Job> {
    return this.call('PUT', jobPath(jobId), definition, job(jobId));
  }

  deleteJob(jobId: string): Promise<{ message: string }> {
    return this.call('DELETE', jobPath(jobId), undefined, job(jobId));
  }

  pauseJob(jobId: string): Promise<Job> {
    return this.call('POST', `${jobPath(jobId)}/pause`, undefined, job(jobId));
  }

  resumeJob(jobId: string): Promise<Job> {
    return this.call('POST', `${jobPath(jobId)}/resume`, undefined, job(jobId));
  }

  /** Executes the job once now and answers that execution (a manual run, counted in the quota). */
  runJobNow(jobId: string): Promise<JobLogEntry> {
    return this.call('POST', `${jobPath(jobId)}/run`, undefined, job(jobId));
  }

  /** The latest finished executions, newest first. */
  async jobLogs(jobId: string): Promise<JobLogEntry[]> {
    const answer = await this.call<Partial<JobLogsResponse>>('GET', `${jobPath(jobId)}/logs`, undefined, job(jobId));
    if (!Array.isArray(answer.logs)) throw this.notCronbeam();
    return answer.logs;
  }

  async listMonitors(): Promise<Monitor[]> {
    const monitors = await this.call<unknown>('GET', '/prog/monitors', undefined, null);
    if (!Array.isArray(monitors)) throw this.notCronbeam();
    return monitors as Monitor[];
  }

  getMonitor(monitorId: string): Promise<Monitor> {
    return this.call('GET', monitorPath(monitorId), undefined, monitor(monitorId));
  }

  /** The definition as the API takes it (MonitorDefinition's input: defaults filled in by the server). */
  createMonitor(definition: MonitorInput): Promise<Monitor> {
    return this.call('POST', '/prog/monitors', definition, null);
  }

  /** PUT replaces the whole definition; the ping URL stays. */
  replaceMonitor(monitorId: string, definition: MonitorInput): Promise<Monitor> {
    return this.call('PUT', monitorPath(monitorId), definition, monitor(monitorId));
  }

  deleteMonitor(monitorId: string): Promise<{ message: string }> {
    return this.call('DELETE', monitorPath(monitorId), undefined, monitor(monitorId));
  }

  pauseMonitor(monitorId: string): Promise<Monitor> {
    return this.call('POST', `${monitorPath(monitorId)}/pause`, undefined, monitor(monitorId));
  }

  resumeMonitor(monitorId: string): Promise<Monitor> {
    return this.call('POST', `${monitorPath(monitorId)}/resume`, undefined, monitor(monitorId));
  }

  /** The latest pings and missed pings, newest first. */
  async monitorEvents(monitorId: string): Promise<MonitorEvent[]> {
    const answer = await this.call<{ events?: unknown }>('GET', `${monitorPath(monitorId)}/events`, undefined, monitor(monitorId));
    if (!Array.isArray(answer.events)) throw this.notCronbeam();
    return answer.events as MonitorEvent[];
  }

  /** A server at CRONBEAM_URL answered JSON that no Cronbeam route gives. */
  private notCronbeam(): CronbeamError {
    return new CronbeamError('configuration', `${this.settings.baseUrl} answered, but not as the Cronbeam API does. Check that CRONBEAM_URL is the address of the Cronbeam API.`);
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

  /** One call; `subject` names the job or monitor a 404 is about (null for the collection routes, where a 404 means a wrong URL). */
  private async call<T>(method: Method, path: string, body: unknown, subject: CallSubject | null, authenticated = true): Promise<T> {
    const headers = this.headersFor(authenticated);
    if (body !== undefined) headers['content-type'] = 'application/json';
    const url = `${this.settings.baseUrl}${path}`;
    let response: Response;
    let text: string;
    try {
      response = await fetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.settings.timeoutMs),
        // A redirect would resend the key to another address or turn a POST into a GET: CRONBEAM_URL must be the API itself.
        redirect: 'error',
      });
      // The timeout also covers reading the body.
      text = await response.text();
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.settings.timeoutMs} ms` : describeNetworkError(error);
      throw new CronbeamError(
        'unreachable',
        `Cannot reach Cronbeam at ${this.settings.baseUrl} (${reason}). Check CRONBEAM_URL; if it is right, the service may be starting: try again in a few seconds.`,
      );
    }
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (!response.ok) {
      const detail = parsed && typeof parsed === 'object' && 'detail' in parsed ? (parsed as { detail: unknown }).detail : text.slice(0, 500) || response.statusText;
      throw errorFromResponse(response.status, detail, response.headers.get('retry-after'), subject, this.settings.baseUrl);
    }
    if (parsed === null) {
      throw new CronbeamError('server_error', `Cronbeam answered ${response.status} without JSON at ${url}; is CRONBEAM_URL the API's address?`, response.status);
    }
    return parsed as T;
  }
}

/** What create and replace send: the monitor fields, optional ones left to the server's defaults. */
export type MonitorInput = Pick<Monitor, 'name'> & Partial<Pick<Monitor, 'period_seconds' | 'cron_expression' | 'time_zone' | 'grace_seconds' | 'alert_after_misses' | 'channel_ids' | 'tags'>>;

const job = (id: string): CallSubject => ({ kind: 'job', id });
const monitor = (id: string): CallSubject => ({ kind: 'monitor', id });

/** Ids travel in the path: anything odd is escaped, so an id can never reach another route. */
function jobPath(jobId: string): string {
  return `/prog/jobs/${encodeURIComponent(jobId)}`;
}

function monitorPath(monitorId: string): string {
  return `/prog/monitors/${encodeURIComponent(monitorId)}`;
}

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : null;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code ? `${code}: ${message}` : message;
}
