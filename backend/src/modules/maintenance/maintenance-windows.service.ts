import { Injectable } from '@nestjs/common';
import {
  MAINTENANCE_LIMITS,
  MAINTENANCE_MESSAGES,
  windowCovers,
  windowTargets,
  type MaintenanceWindow,
  type MaintenanceWindowDefinition,
} from '@cronbeam/shared/notifications/maintenance-windows';
import type { Actor } from '../audit';
import type { Queryable } from '../../common/database/transaction';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { JobsService } from '../jobs/jobs.service';
import { MaintenanceWindowsRepository, type MaintenanceWindowRow } from './maintenance-windows.repository';

/** A window as the rules of shared/ read it. */
function timing(row: MaintenanceWindowRow) {
  return {
    starts_at: row.starts_at ? new Date(row.starts_at).toISOString() : null,
    ends_at: row.ends_at ? new Date(row.ends_at).toISOString() : null,
    cron_expression: row.cron_expression,
    duration_minutes: row.duration_minutes,
    time_zone: row.time_zone,
  };
}

/** The first of the windows (oldest first) that targets the job and is open at `at`. */
function openFor(rows: MaintenanceWindowRow[], job: { job_id: string; tags: readonly string[] }, at: Date): MaintenanceWindowRow | null {
  return rows.find((w) => windowTargets(w, job) && windowCovers(timing(w), at)) ?? null;
}

/** How pausing() names a due run: its job and due time. */
export function pausingKey(jobId: string, fire: Date): string {
  return `${jobId} ${fire.getTime()}`;
}

/** A job the scheduler is about to run: is a pausing window open at its due time? */
export interface DueJob {
  id: string;
  account_id: string;
  tags: readonly string[];
  fire: Date;
}

/**
 * Maintenance windows as their owner manages them (create, replace, list,
 * delete; at most MAINTENANCE_LIMITS.windowsPerAccount per account, only the
 * owner's jobs), and the two questions the rest of the service asks of them:
 * does a window mute this job's alert now, and does one pause its run.
 */
@Injectable()
export class MaintenanceWindowsService {
  constructor(
    private readonly windows: MaintenanceWindowsRepository,
    private readonly jobs: JobsService,
  ) {}

  async list(accountId: string): Promise<MaintenanceWindow[]> {
    const now = new Date();
    return (await this.windows.listOwned(accountId, 'replica')).map((row) => toView(row, now));
  }

  async get(accountId: string, windowId: string): Promise<MaintenanceWindow> {
    return toView(await this.find(accountId, windowId), new Date());
  }

  async create(actor: Actor, accountId: string, definition: MaintenanceWindowDefinition): Promise<MaintenanceWindow> {
    await this.checkJob(accountId, definition.job_id);
    const row = await this.windows.insert(actor, accountId, definition, MAINTENANCE_LIMITS.windowsPerAccount);
    if (!row) throw ApiError.forbidden(MAINTENANCE_MESSAGES.limit);
    return toView(row, new Date());
  }

  async update(actor: Actor, accountId: string, windowId: string, definition: MaintenanceWindowDefinition): Promise<MaintenanceWindow> {
    const current = await this.find(accountId, windowId);
    await this.checkJob(accountId, definition.job_id);
    const row = await this.windows.replace(actor, accountId, current.id, definition);
    if (!row) throw ApiError.notFound(MAINTENANCE_MESSAGES.notFound);
    return toView(row, new Date());
  }

  async remove(actor: Actor, accountId: string, windowId: string): Promise<void> {
    if (!isUuid(windowId) || !(await this.windows.deleteOwned(actor, accountId, windowId))) throw ApiError.notFound(MAINTENANCE_MESSAGES.notFound);
  }

  /** The window that mutes the job's alerts at `at` (the oldest, when several are open), or null. */
  async muting(accountId: string, job: { job_id: string; tags: readonly string[] }, at: Date): Promise<{ name: string } | null> {
    const row = openFor(await this.windows.current(accountId, at), job, at);
    return row ? { name: row.name } : null;
  }

  /**
   * The window that mutes a monitor's alerts at `at`: an account-wide window
   * or one on a tag the monitor carries (a window on one job names a job, never
   * a monitor), the oldest when several are open; or null.
   */
  async mutingMonitor(accountId: string, monitor: { tags: readonly string[] }, at: Date): Promise<{ name: string } | null> {
    const windows = (await this.windows.current(accountId, at)).filter((w) => w.job_id === null);
    const row = openFor(windows, { job_id: '', tags: monitor.tags }, at);
    return row ? { name: row.name } : null;
  }

  /**
   * For each due run a pausing window covers at its due time, that window's
   * name, by pausingKey (a job may have several runs due in one claim: a
   * catch-up). One read for the whole claim, inside its transaction.
   */
  async pausing(tx: Queryable, due: DueJob[]): Promise<Map<string, string>> {
    const paused = new Map<string, string>();
    if (due.length === 0) return paused;
    const earliest = new Date(Math.min(...due.map((d) => d.fire.getTime())));
    const rows = await this.windows.pausing(tx, [...new Set(due.map((d) => d.account_id))], earliest);
    if (rows.length === 0) return paused;
    for (const job of due) {
      const window = openFor(
        rows.filter((w) => w.account_id === job.account_id),
        { job_id: job.id, tags: job.tags },
        job.fire,
      );
      if (window) paused.set(pausingKey(job.id, job.fire), window.name);
    }
    return paused;
  }

  /** A window may name only one of the owner's own jobs. */
  private async checkJob(accountId: string, jobId: string | null): Promise<void> {
    if (jobId === null) return;
    const own = isUuid(jobId) ? await this.jobs.get(accountId, jobId).catch(() => null) : null;
    if (!own) throw ApiError.invalidField(['body', 'job_id'], MAINTENANCE_MESSAGES.unknownJob);
  }

  private async find(accountId: string, windowId: string): Promise<MaintenanceWindowRow> {
    const row = isUuid(windowId) ? await this.windows.findOwned(accountId, windowId) : null;
    if (!row) throw ApiError.notFound(MAINTENANCE_MESSAGES.notFound);
    return row;
  }
}

function toView(row: MaintenanceWindowRow, now: Date): MaintenanceWindow {
  const t = timing(row);
  return {
    window_id: row.id,
    name: row.name,
    job_id: row.job_id,
    tag: row.tag,
    ...t,
    pause_runs: row.pause_runs,
    active: windowCovers(t, now),
    created_at: new Date(row.created_at).toISOString(),
  };
}
