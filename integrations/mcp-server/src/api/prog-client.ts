import type { Job, JobDefinition, JobLogEntry } from '@cronbeam/shared/jobs/job-types';
import type { MaintenanceWindow } from '@cronbeam/shared/notifications/maintenance-windows';
import type { Monitor, MonitorEvent } from '@cronbeam/shared/notifications/monitors';
import { createCronbeamClient, CronbeamApiError, CronbeamConnectionError, type CronbeamClient, type JobDefinition as SdkJobDefinition, type MonitorDefinition as SdkMonitorDefinition } from '@cronbeam/sdk';
import type { CronbeamSettings } from '../config';
import { type CallSubject, CronbeamError, errorFromResponse } from './cronbeam-errors';

/**
 * The /prog API through the SDK's generated client (paths, parameters and
 * bodies typed from the OpenAPI document, error statuses thrown as
 * CronbeamApiError). One instance per server process; every call reads the
 * same settings, so a configuration problem fails each tool call with the
 * same message rather than the process.
 */
export class ProgClient {
  private readonly client: CronbeamClient | null;

  constructor(private readonly settings: CronbeamSettings) {
    this.client = settings.urlProblem
      ? null
      : createCronbeamClient({
          baseUrl: settings.baseUrl,
          apiKey: settings.apiKey ?? '',
          userId: settings.userId,
          timeoutMs: settings.timeoutMs,
          // Short waits the API asks for (429, 503) are waited out; longer ones reach the model as rate_limited, with the wait.
          retry: { maxRetries: 2, maxDelayMs: 5_000 },
          // A redirect would resend the key to another address or turn a POST into a GET: CRONBEAM_URL must be the API itself.
          fetch: (input, init) => fetch(input, { ...init, redirect: 'error' }),
        });
  }

  get baseUrl(): string {
    return this.settings.baseUrl;
  }

  get hasUserId(): boolean {
    return this.settings.userId !== null;
  }

  /** The unauthenticated health route: tells "service down" from "wrong key". */
  async ping(): Promise<{ message: string }> {
    const { message } = await this.call(null, (c) => c.GET('/prog/ping', { headers: { authorization: null, 'x-api-key': null, 'x-user-id': null } }), false);
    return { message: message ?? '' };
  }

  async listJobs(): Promise<Job[]> {
    const jobs = await this.call(null, (c) => c.GET('/prog/jobs'));
    if (!Array.isArray(jobs)) throw this.notCronbeam();
    return jobs as Job[];
  }

  getJob(jobId: string): Promise<Job> {
    return this.call(job(jobId), (c) => c.GET('/prog/jobs/{job_id}', { params: { path: { job_id: jobId } } })) as Promise<Job>;
  }

  createJob(definition: JobDefinition): Promise<Job> {
    return this.call(null, (c) => c.POST('/prog/jobs', { body: definition as SdkJobDefinition })) as Promise<Job>;
  }

  /** PUT replaces the whole definition. */
  replaceJob(jobId: string, definition: JobDefinition): Promise<Job> {
    return this.call(job(jobId), (c) => c.PUT('/prog/jobs/{job_id}', { params: { path: { job_id: jobId } }, body: definition as SdkJobDefinition })) as Promise<Job>;
  }

  async deleteJob(jobId: string): Promise<{ message: string }> {
    const { message } = await this.call(job(jobId), (c) => c.DELETE('/prog/jobs/{job_id}', { params: { path: { job_id: jobId } } }));
    return { message: message ?? 'Job deleted' };
  }

  pauseJob(jobId: string): Promise<Job> {
    return this.call(job(jobId), (c) => c.POST('/prog/jobs/{job_id}/pause', { params: { path: { job_id: jobId } } })) as Promise<Job>;
  }

  resumeJob(jobId: string): Promise<Job> {
    return this.call(job(jobId), (c) => c.POST('/prog/jobs/{job_id}/resume', { params: { path: { job_id: jobId } } })) as Promise<Job>;
  }

  /** Executes the job once now and answers that execution (a manual run, counted in the quota). */
  runJobNow(jobId: string): Promise<JobLogEntry> {
    return this.call(job(jobId), (c) => c.POST('/prog/jobs/{job_id}/run', { params: { path: { job_id: jobId } } })) as Promise<JobLogEntry>;
  }

  /** The latest finished executions, newest first. */
  async jobLogs(jobId: string): Promise<JobLogEntry[]> {
    const answer: { logs?: unknown } = await this.call(job(jobId), (c) => c.GET('/prog/jobs/{job_id}/logs', { params: { path: { job_id: jobId } } }));
    if (!Array.isArray(answer?.logs)) throw this.notCronbeam();
    return answer.logs as JobLogEntry[];
  }

  async listMonitors(): Promise<Monitor[]> {
    const monitors = await this.call(null, (c) => c.GET('/prog/monitors'));
    if (!Array.isArray(monitors)) throw this.notCronbeam();
    return monitors as Monitor[];
  }

  getMonitor(monitorId: string): Promise<Monitor> {
    return this.call(monitor(monitorId), (c) => c.GET('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: monitorId } } })) as Promise<Monitor>;
  }

  /** The definition as the API takes it (MonitorDefinition's input: defaults filled in by the server). */
  createMonitor(definition: MonitorInput): Promise<Monitor> {
    return this.call(null, (c) => c.POST('/prog/monitors', { body: definition as SdkMonitorDefinition })) as Promise<Monitor>;
  }

  /** PUT replaces the whole definition; the ping URL stays. */
  replaceMonitor(monitorId: string, definition: MonitorInput): Promise<Monitor> {
    return this.call(monitor(monitorId), (c) => c.PUT('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: monitorId } }, body: definition as SdkMonitorDefinition })) as Promise<Monitor>;
  }

  async deleteMonitor(monitorId: string): Promise<{ message: string }> {
    const { message } = await this.call(monitor(monitorId), (c) => c.DELETE('/prog/monitors/{monitor_id}', { params: { path: { monitor_id: monitorId } } }));
    return { message: message ?? 'Monitor deleted' };
  }

  pauseMonitor(monitorId: string): Promise<Monitor> {
    return this.call(monitor(monitorId), (c) => c.POST('/prog/monitors/{monitor_id}/pause', { params: { path: { monitor_id: monitorId } } })) as Promise<Monitor>;
  }

  resumeMonitor(monitorId: string): Promise<Monitor> {
    return this.call(monitor(monitorId), (c) => c.POST('/prog/monitors/{monitor_id}/resume', { params: { path: { monitor_id: monitorId } } })) as Promise<Monitor>;
  }

  /** The latest pings and missed pings, newest first. */
  async monitorEvents(monitorId: string): Promise<MonitorEvent[]> {
    const answer: { events?: unknown } = await this.call(monitor(monitorId), (c) => c.GET('/prog/monitors/{monitor_id}/events', { params: { path: { monitor_id: monitorId } } }));
    if (!Array.isArray(answer?.events)) throw this.notCronbeam();
    return answer.events as MonitorEvent[];
  }

  async listMaintenanceWindows(): Promise<MaintenanceWindow[]> {
    const windows = await this.call(null, (c) => c.GET('/prog/maintenance-windows'));
    if (!Array.isArray(windows)) throw this.notCronbeam();
    return windows as MaintenanceWindow[];
  }

  /** The definition as the API takes it (defaults filled in by the server). */
  createMaintenanceWindow(definition: MaintenanceWindowInput): Promise<MaintenanceWindow> {
    return this.call(null, (c) => c.POST('/prog/maintenance-windows', { body: definition as never })) as Promise<MaintenanceWindow>;
  }

  async deleteMaintenanceWindow(windowId: string): Promise<{ message: string }> {
    const subject: CallSubject = { kind: 'maintenance_window', id: windowId };
    const { message } = await this.call(subject, (c) => c.DELETE('/prog/maintenance-windows/{window_id}', { params: { path: { window_id: windowId } } }));
    return { message: message ?? 'Maintenance window deleted' };
  }

  /** A server at CRONBEAM_URL answered JSON that no Cronbeam route gives. */
  private notCronbeam(): CronbeamError {
    return new CronbeamError('configuration', `${this.settings.baseUrl} answered, but not as the Cronbeam API does. Check that CRONBEAM_URL is the address of the Cronbeam API.`);
  }

  /**
   * One call; `subject` names the job or monitor a 404 is about (null for the
   * collection routes, where a 404 means a wrong URL). Configuration problems
   * stop it before anything is sent (only the URL's for the unauthenticated ping).
   */
  private async call<Data>(subject: CallSubject | null, send: (client: CronbeamClient) => Promise<{ data?: Data; response: Response }>, authenticated = true): Promise<Exclude<Data, undefined>> {
    const { settings } = this;
    const blocking = authenticated ? settings.problems : settings.urlProblem ? [settings.urlProblem] : [];
    if (blocking.length > 0 || !this.client) {
      throw new CronbeamError('configuration', `The Cronbeam MCP server is not configured: ${blocking.join(' ')}`);
    }
    let answer: { data?: Data; response: Response };
    try {
      answer = await send(this.client);
    } catch (error) {
      if (error instanceof CronbeamApiError) throw errorFromResponse(error.status, error.detail, error.retryAfterSeconds, subject, settings.baseUrl);
      if (error instanceof CronbeamConnectionError) throw unreachable(settings, error.cause);
      // openapi-fetch parses the body after the fetch returned: a page that is not JSON (a web app at a wrong path) lands here.
      if (error instanceof SyntaxError) throw this.notCronbeam();
      throw unreachable(settings, error);
    }
    if (answer.data === undefined || answer.data === null) throw this.notCronbeam();
    return answer.data as Exclude<Data, undefined>;
  }
}

const unreachable = (settings: CronbeamSettings, cause: unknown) => {
  const reason = cause instanceof Error && cause.name === 'TimeoutError' ? `no answer within ${settings.timeoutMs} ms` : describeNetworkError(cause);
  return new CronbeamError('unreachable', `Cannot reach Cronbeam at ${settings.baseUrl} (${reason}). Check CRONBEAM_URL; if it is right, the service may be starting: try again in a few seconds.`);
};

/** What create and replace send: the monitor fields, optional ones left to the server's defaults. */
export type MonitorInput = Pick<Monitor, 'name'> & Partial<Pick<Monitor, 'period_seconds' | 'cron_expression' | 'time_zone' | 'grace_seconds' | 'alert_after_misses' | 'channel_ids' | 'tags'>>;

/** What create sends: the window's fields, optional ones left to the server's defaults. */
export type MaintenanceWindowInput = Pick<MaintenanceWindow, 'name'> &
  Partial<Pick<MaintenanceWindow, 'job_id' | 'tag' | 'starts_at' | 'ends_at' | 'cron_expression' | 'duration_minutes' | 'time_zone' | 'pause_runs'>>;

const job = (id: string): CallSubject => ({ kind: 'job', id });
const monitor = (id: string): CallSubject => ({ kind: 'monitor', id });

function describeNetworkError(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  const code = cause && typeof cause === 'object' && 'code' in cause ? String((cause as { code: unknown }).code) : null;
  const message = cause instanceof Error ? cause.message : String(cause);
  return code ? `${code}: ${message}` : message;
}
