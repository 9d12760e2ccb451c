import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { AuditService } from '../audit/audit.service';
import { TeamsService } from '../teams/teams.service';
import { JobScheduleService } from '../jobs/job-schedule.service';
import { QuotaService } from '../quota/quota.service';
import { RunsService } from '../runs/runs.service';
import { SchedulerSettings } from './scheduler-settings';
import { WakeChannel } from './wake-channel';

const INTERVAL_NAME = 'scheduler-housekeeping';

/** Log pruning scans the whole run table (the newest 1,000 per job), so it runs at most this often; it also makes the weekly run partitions ahead and deletes expired audit entries. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Periodic upkeep that is safe to run on every instance at once: restores
 * jobs stopped by the quota when a new period (or a bigger plan) leaves room,
 * prunes execution logs to the newest 1,000 per job and drops the weeks of runs older than 90 days,
 * and deletes audit entries older than their account's plan keeps them.
 */
@Injectable()
export class Housekeeping implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Housekeeping.name);
  private running: Promise<void> | null = null;
  private lastPrune = 0;

  constructor(
    private readonly settings: SchedulerSettings,
    private readonly jobs: JobScheduleService,
    private readonly runs: RunsService,
    private readonly quota: QuotaService,
    private readonly teams: TeamsService,
    private readonly audit: AuditService,
    private readonly registry: SchedulerRegistry,
    private readonly wake: WakeChannel,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.enabled) return;
    this.registry.addInterval(INTERVAL_NAME, setInterval(() => void this.run(), this.settings.housekeepingIntervalMs));
    void this.run();
  }

  /** Stops the timer and waits for a round in progress, so none queries a database that is closing. */
  async onModuleDestroy(): Promise<void> {
    if (this.registry.doesExist('interval', INTERVAL_NAME)) this.registry.deleteInterval(INTERVAL_NAME);
    await this.running;
  }

  run(): Promise<void> {
    this.running ??= this.round().finally(() => (this.running = null));
    return this.running;
  }

  private async round(): Promise<void> {
    try {
      const restored = await this.restoreQuotaJobs(new Date());
      if (restored > 0) {
        this.logger.log(`Restored ${restored} job(s) stopped by the execution quota`);
        this.wake.signal();
      }
      if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        await this.pruneLogs();
        const expired = await this.audit.deleteExpired();
        if (expired > 0) this.logger.log(`Deleted ${expired} audit entries past their plan's retention`);
      }
    } catch (error) {
      this.logger.error(`Housekeeping failed: ${(error as Error).message}`);
    }
  }

  /** Jobs in quota_reached whose owner has executions left this period go back to scheduled, due at their next cron instant. */
  async restoreQuotaJobs(now: Date): Promise<number> {
    const held = await this.jobs.quotaHeld();
    if (held.length === 0) return 0;
    const plans = await this.teams.plansOf(held.map((j) => j.account_id));
    const withRoom = await this.quota.usersWithExecutionsLeft(new Map(held.map((j) => [j.account_id, plans.get(j.account_id) ?? 'free'])), now);
    return this.jobs.restoreQuotaHeld(held.filter((j) => withRoom.has(j.account_id)), now);
  }

  /** Makes the weekly run partitions ahead, drops the weeks older than 90 days, keeps each job's newest 1,000 finished runs. */
  pruneLogs(): Promise<void> {
    return this.runs.pruneLogs();
  }
}
