import { randomBytes } from 'node:crypto';
import { Injectable, Logger, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { MONITOR_LIMITS, MONITOR_MESSAGES, type Monitor, type MonitorDefinition, type MonitorEvent, type MonitorStatus } from '@cronbeam/shared/notifications/monitors';
import type { BulkTagActionRequest, MonitorBulkTagResult } from '@cronbeam/shared/tags/tags';
import type { Actor } from '../audit';
import { AppConfig } from '../../config/app-config';
import { BackgroundWork } from '../../common/background-work';
import { ApiError } from '../../common/http/api-error';
import type { FailureEpisode, OutcomeDay } from '../../common/history/outcome-history';
import { isUuid } from '../../common/validation/uuid';
import { AlertChannelsService } from '../alert-channels/alert-channels.service';
import { TeamsService } from '../teams/teams.service';
import { MailService } from '../mail/mail.service';
import { MaintenanceWindowsService } from '../maintenance/maintenance-windows.service';
import { JobLimitService } from '../quota/job-limit.service';
import { deadline } from './monitor-deadline';
import { MonitorsRepository, type MonitorFields, type MonitorRow } from './monitors.repository';
import type { ReadFrom } from '../../database/read-database';

/** How often overdue monitors are looked for: a missed ping is noticed within this after its grace time. */
export const MONITOR_SWEEP_MS = 2_000;
/** How often old monitor events are pruned. */
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Heartbeat monitors: a job that runs elsewhere pings its monitor's URL. The
 * next ping is expected one period after the last, or at the cron
 * expression's next instant after it (in the monitor's time zone); a ping that
 * does not come within the grace time after that (or a failure ping) opens a
 * failure episode, the next ping closes it, with one alert each to the
 * owner's email and the monitor's alert channels. Monitors count toward the
 * plan's job limit.
 */
@Injectable()
export class MonitorsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(MonitorsService.name);
  private sweep: NodeJS.Timeout | null = null;
  private lastPrune = 0;
  private readonly background = new BackgroundWork();

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly teams: TeamsService,
    private readonly jobLimit: JobLimitService,
    private readonly mail: MailService,
    private readonly channels: AlertChannelsService,
    private readonly config: AppConfig,
    private readonly maintenance: MaintenanceWindowsService,
  ) {}

  onModuleInit(): void {
    this.sweep = setInterval(() => void this.background.track(this.markOverdue()), MONITOR_SWEEP_MS);
    this.sweep.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = null;
    // A sweep still running may start alerts: settled() waits for those too.
    await this.background.settled();
  }

  /** Oldest first; with a tag, only the monitors carrying it. */
  async list(accountId: string, tag: string | null = null): Promise<Monitor[]> {
    return (await this.monitors.listOwned(accountId, tag)).map((row) => this.view(row));
  }

  /** Pauses, resumes or deletes every monitor of the account carrying the tag; answers exactly those (after the action, or as they were before a delete). */
  async bulkAction(actor: Actor, accountId: string, request: BulkTagActionRequest): Promise<MonitorBulkTagResult<Monitor>> {
    const { action, tag } = request;
    let rows: MonitorRow[];
    if (action === 'delete') rows = await this.monitors.deleteTagged(actor, accountId, tag);
    else {
      await this.monitors.setPausedTagged(actor, accountId, tag, action === 'pause');
      rows = await this.monitors.listOwned(accountId, tag);
    }
    return { action, tag, count: rows.length, monitors: rows.map((row) => this.view(row)) };
  }

  async get(accountId: string, monitorId: string): Promise<Monitor> {
    return this.view(await this.find(accountId, monitorId));
  }

  async create(actor: Actor, accountId: string, definition: MonitorDefinition): Promise<Monitor> {
    const fields = await this.checked(accountId, definition);
    const plan = await this.teams.planOf(accountId);
    const token = randomBytes(18).toString('base64url');
    const row = await this.jobLimit.createWithin(accountId, plan, (tx) => this.monitors.insert(tx, actor, accountId, token, fields));
    return this.view(row);
  }

  /** Replaces the definition (the ping URL stays); an up monitor's deadline follows the new schedule from its last ping. */
  async update(actor: Actor, accountId: string, monitorId: string, definition: MonitorDefinition): Promise<Monitor> {
    const current = await this.find(accountId, monitorId);
    const fields = await this.checked(accountId, definition);
    const dueAt = current.last_ping_at ? deadline(fields, new Date(current.last_ping_at)) : null;
    const row = await this.monitors.updateOwned(actor, accountId, current.id, fields, dueAt);
    if (!row) throw ApiError.notFound(MONITOR_MESSAGES.notFound);
    return this.view(row);
  }

  async setPaused(actor: Actor, accountId: string, monitorId: string, paused: boolean): Promise<Monitor> {
    const row = isUuid(monitorId) ? await this.monitors.setPausedOwned(actor, accountId, monitorId, paused) : null;
    if (!row) throw ApiError.notFound(MONITOR_MESSAGES.notFound);
    return this.view(row);
  }

  async remove(actor: Actor, accountId: string, monitorId: string): Promise<void> {
    if (!isUuid(monitorId) || !(await this.monitors.deleteOwned(actor, accountId, monitorId))) throw ApiError.notFound(MONITOR_MESSAGES.notFound);
  }

  /** The monitor's latest pings and missed pings, newest first. */
  async events(accountId: string, monitorId: string): Promise<MonitorEvent[]> {
    const monitor = await this.find(accountId, monitorId);
    return this.monitors.events(monitor.id, MONITOR_LIMITS.recentEvents);
  }

  /** The account's monitors among `ids` (others and malformed ids left out): names and states, for status pages and badges. */
  summaries(accountId: string, ids: string[]): Promise<Array<{ id: string; name: string; status: MonitorStatus }>> {
    const valid = ids.filter(isUuid);
    return valid.length ? this.monitors.summaries(accountId, valid) : Promise.resolve([]);
  }

  /** The monitors' outcomes per UTC day since `since` (the caller has checked they are one owner's). */
  outcomeDays(monitorIds: string[], since: Date, from: ReadFrom): Promise<OutcomeDay[]> {
    return monitorIds.length ? this.monitors.outcomeDays(monitorIds, since, from) : Promise.resolve([]);
  }

  /** The monitors' latest failure episodes since `since`, newest first (the caller has checked they are one owner's). */
  failureEpisodes(monitorIds: string[], since: Date, limit: number, from: ReadFrom): Promise<FailureEpisode[]> {
    return monitorIds.length ? this.monitors.failureEpisodes(monitorIds, since, limit, from) : Promise.resolve([]);
  }

  /** For the dashboard: the account's monitors by status. */
  countByStatus(accountId: string): Promise<Partial<Record<MonitorStatus, number>>> {
    return this.monitors.countByStatus(accountId);
  }

  /** `kind`: a success ping, a failure ping, or the start of a run (measures its time). Unknown tokens are a 404. */
  async ping(token: string, kind: 'success' | 'fail' | 'start'): Promise<void> {
    const monitor = await this.monitors.findByToken(token);
    if (!monitor) throw ApiError.notFound(MONITOR_MESSAGES.unknownPing);
    if (kind === 'start') {
      await this.monitors.start(monitor.id);
      await this.monitors.logEvent(monitor.id, 'start', null);
      return;
    }
    const at = new Date();
    const row = kind === 'fail' ? await this.monitors.fail(monitor.id) : await this.monitors.ping(monitor.id, at, deadline(monitor, at));
    if (!row) throw ApiError.notFound(MONITOR_MESSAGES.unknownPing);
    await this.monitors.logEvent(row.id, kind, kind === 'success' ? row.last_duration_ms : null);
    if (kind === 'fail' && row.was !== 'down' && row.status === 'down') this.alert(row, 'failed', 'The job reported a failure (/fail ping).');
    if (kind === 'success' && row.was === 'down') this.alert(row, 'recovered', 'A ping arrived: the job runs again.');
  }

  private async markOverdue(): Promise<void> {
    try {
      for (const overdue of await this.monitors.overdue()) {
        // The next deadline after a missed one: the schedule's next expected ping after the missed one, plus grace.
        const missedDue = new Date(overdue.due_at!);
        const row = await this.monitors.missed(overdue.id, missedDue, deadline(overdue, new Date(missedDue.getTime() - overdue.grace_seconds * 1000)));
        if (!row) continue;
        await this.monitors.logEvent(row.id, 'missed', null);
        const inARow = row.alert_after_misses > 1 ? ` (${row.alert_after_misses} deadlines missed in a row)` : '';
        if (row.status === 'down') this.alert(row, 'failed', `No ping ${expectation(row)} plus ${row.grace_seconds} s grace${inARow}.`);
      }
      if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        await this.monitors.pruneEvents();
      }
    } catch (error) {
      this.logger.warn(`Monitor sweep failed: ${(error as Error).message}`);
    }
  }

  private alert(row: MonitorRow, event: 'failed' | 'recovered', detail: string): void {
    void this.background.track((async () => {
      // A monitor going down inside a maintenance window (account-wide or on one of its tags) alerts no one. Recoveries
      // are never muted, as for jobs: one may close an episode (a PagerDuty incident) opened before the window.
      const muted = event === 'failed' ? await this.maintenance.mutingMonitor(row.account_id, row, new Date()) : null;
      if (muted) {
        this.logger.log(`Alert for monitor ${row.id} (${event}) muted by maintenance window "${muted.name}"`);
        return;
      }
      const user = await this.teams.ownerOf(row.account_id);
      const dashboard = `${this.config.publicUrl}/dashboard`;
      const subject = event === 'failed' ? `Cronbeam: monitor "${row.name}" is down` : `Cronbeam: monitor "${row.name}" is up again`;
      if (user) await this.mail.send({ to: user.email, subject, text: `${detail}\n\nLogs: ${dashboard}` });
      await this.channels.notifyMonitor(row.account_id, row.id, row.channel_ids, {
        event,
        jobName: row.name,
        jobUrl: this.pingUrl(row.token),
        detail,
        at: new Date(),
        ...(row.episode_id ? { episodeId: row.episode_id } : {}),
        ...(row.episode_started_at ? { episodeStartedAt: new Date(row.episode_started_at) } : {}),
      });
    })().catch((error: Error) => this.logger.warn(`Alert for monitor ${row.id} not sent: ${error.message}`)));
  }

  private async find(accountId: string, monitorId: string): Promise<MonitorRow> {
    const row = isUuid(monitorId) ? await this.monitors.findOwned(accountId, monitorId) : null;
    if (!row) throw ApiError.notFound(MONITOR_MESSAGES.notFound);
    return row;
  }

  /** The definition as stored, after checking that the channels it names are the account's. */
  private async checked(accountId: string, d: MonitorDefinition): Promise<MonitorFields> {
    if (d.channel_ids) {
      const own = await this.channels.ownedIds(accountId);
      const stranger = d.channel_ids.findIndex((id) => !own.has(id));
      if (stranger >= 0) throw ApiError.invalidField(['body', 'channel_ids', stranger], MONITOR_MESSAGES.unknownChannel);
    }
    return {
      name: d.name,
      period_seconds: d.period_seconds,
      cron_expression: d.cron_expression,
      time_zone: d.time_zone,
      grace_seconds: d.grace_seconds,
      alert_after_misses: d.alert_after_misses,
      channel_ids: d.channel_ids ? [...new Set(d.channel_ids)] : null,
      tags: d.tags,
    };
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
      cron_expression: row.cron_expression,
      time_zone: row.time_zone,
      grace_seconds: row.grace_seconds,
      alert_after_misses: row.alert_after_misses,
      channel_ids: row.channel_ids,
      tags: row.tags,
      status: row.status,
      last_ping_at: iso(row.last_ping_at),
      last_duration_ms: row.last_duration_ms,
      due_at: iso(row.due_at),
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}

function expectation(row: MonitorRow): string {
  return row.cron_expression ? `at "${row.cron_expression}" (${row.time_zone})` : `within ${row.period_seconds} s`;
}
