import { randomBytes } from 'node:crypto';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MONITOR_MESSAGES, type Monitor, type MonitorDefinition } from '@shared/notifications/monitors';
import type { JobLimitExceeded } from '@shared/jobs/job-types';
import { AppConfig } from '../../config/app-config';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { AlertChannelsService } from '../alert-channels/alert-channels.service';
import { UsersService } from '../auth/users.service';
import { JobsService } from '../jobs/jobs.service';
import { MailService } from '../mail/mail.service';
import { QuotaService } from '../quota/quota.service';
import { MonitorsRepository, type MonitorRow } from './monitors.repository';

/** How often overdue monitors are looked for: a missed ping is noticed within this after its grace time. */
export const MONITOR_SWEEP_MS = 2_000;

/**
 * Heartbeat monitors: a job that runs elsewhere pings its monitor's URL; a
 * ping that does not come within the period plus grace (or a failure ping)
 * opens a failure episode, the next ping closes it, with one alert each to
 * the owner's email and alert channels. Monitors count toward the plan's job limit.
 */
@Injectable()
export class MonitorsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MonitorsService.name);
  private sweep: NodeJS.Timeout | null = null;

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly jobs: JobsService,
    private readonly users: UsersService,
    private readonly quota: QuotaService,
    private readonly mail: MailService,
    private readonly channels: AlertChannelsService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.jobs.setLimitSharer((userId) => this.monitors.countOwned(userId));
    this.sweep = setInterval(() => void this.markOverdue(), MONITOR_SWEEP_MS);
    this.sweep.unref();
  }

  onModuleDestroy(): void {
    if (this.sweep) clearInterval(this.sweep);
  }

  async list(userId: string): Promise<Monitor[]> {
    return (await this.monitors.listOwned(userId)).map((row) => this.view(row));
  }

  async create(userId: string, definition: MonitorDefinition): Promise<Monitor> {
    const plan = await this.users.getPlan(userId);
    const maxJobs = this.quota.jobLimit(plan);
    const used = (await this.jobs.list(userId)).length + (await this.monitors.countOwned(userId));
    if (used >= maxJobs) {
      const detail: JobLimitExceeded = { error: 'Job limit exceeded', plan, job_count: used, max_jobs: maxJobs };
      throw ApiError.forbidden(detail);
    }
    const row = await this.monitors.insert(userId, definition.name, randomBytes(18).toString('base64url'), definition.period_seconds, definition.grace_seconds);
    return this.view(row);
  }

  async remove(userId: string, monitorId: string): Promise<void> {
    if (!isUuid(monitorId) || !(await this.monitors.deleteOwned(userId, monitorId))) throw ApiError.notFound(MONITOR_MESSAGES.notFound);
  }

  /** `kind`: a success ping, a failure ping, or the start of a run (measures its time). Unknown tokens are a 404. */
  async ping(token: string, kind: 'success' | 'fail' | 'start'): Promise<void> {
    if (kind === 'start') {
      if (!(await this.monitors.start(token))) throw ApiError.notFound(MONITOR_MESSAGES.unknownPing);
      return;
    }
    const row = kind === 'fail' ? await this.monitors.fail(token) : await this.monitors.ping(token);
    if (!row) throw ApiError.notFound(MONITOR_MESSAGES.unknownPing);
    if (kind === 'fail' && row.was !== 'down') this.alert(row, 'failed', 'The job reported a failure (/fail ping).');
    if (kind === 'success' && row.was === 'down') this.alert(row, 'recovered', 'A ping arrived: the job runs again.');
  }

  private async markOverdue(): Promise<void> {
    try {
      for (const row of await this.monitors.overdue()) this.alert(row, 'failed', `No ping within ${row.period_seconds} s plus ${row.grace_seconds} s grace.`);
    } catch (error) {
      this.logger.warn(`Monitor sweep failed: ${(error as Error).message}`);
    }
  }

  private alert(row: MonitorRow, event: 'failed' | 'recovered', detail: string): void {
    void (async () => {
      const user = await this.users.findById(row.user_id);
      const dashboard = `${this.config.publicUrl}/dashboard`;
      const subject = event === 'failed' ? `Cronbeam: monitor "${row.name}" is down` : `Cronbeam: monitor "${row.name}" is up again`;
      if (user) await this.mail.send({ to: user.email, subject, text: `${detail}\n\nLogs: ${dashboard}` });
      await this.channels.notify(row.user_id, row.id, { event, jobName: row.name, jobUrl: this.pingUrl(row.token), detail, at: new Date() });
    })().catch((error: Error) => this.logger.warn(`Alert for monitor ${row.id} not sent: ${error.message}`));
  }

  private pingUrl(token: string): string {
    return `${this.config.publicUrl}/ping/${token}`;
  }

  private view(row: MonitorRow): Monitor {
    const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
    return {
      monitor_id: row.id,
      name: row.name,
      ping_url: this.pingUrl(row.token),
      period_seconds: row.period_seconds,
      grace_seconds: row.grace_seconds,
      status: row.status,
      last_ping_at: iso(row.last_ping_at),
      last_duration_ms: row.last_duration_ms,
      due_at: iso(row.due_at),
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}
