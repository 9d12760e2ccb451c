import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { nextCronInstant } from './cron-schedule';
import { returnedRows } from './query-rows';
import { RETENTION_DAYS, RETENTION_RUNS_PER_JOB, SchedulerSettings } from './scheduler-settings';
import { monthlyExecutionLimit, usagePeriodStart } from './usage-quota';
import { WakeChannel } from './wake-channel';

const INTERVAL_NAME = 'scheduler-housekeeping';

/** Log pruning scans the whole run table, so it runs at most this often. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

/**
 * Periodic upkeep that is safe to run on every instance at once: restores
 * jobs stopped by the quota when a new period (or a bigger plan) leaves room,
 * and prunes execution logs to the newest 1,000 per job and 90 days.
 */
@Injectable()
export class Housekeeping implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Housekeeping.name);
  private running = false;
  private lastPrune = 0;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly settings: SchedulerSettings,
    private readonly registry: SchedulerRegistry,
    private readonly wake: WakeChannel,
  ) {}

  onApplicationBootstrap(): void {
    if (!this.settings.enabled) return;
    this.registry.addInterval(INTERVAL_NAME, setInterval(() => void this.run(), this.settings.housekeepingIntervalMs));
    void this.run();
  }

  onModuleDestroy(): void {
    if (this.registry.doesExist('interval', INTERVAL_NAME)) this.registry.deleteInterval(INTERVAL_NAME);
  }

  async run(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const restored = await this.restoreQuotaJobs(new Date());
      if (restored > 0) {
        this.logger.log(`Restored ${restored} job(s) stopped by the execution quota`);
        this.wake.signal();
      }
      if (Date.now() - this.lastPrune >= PRUNE_EVERY_MS) {
        this.lastPrune = Date.now();
        await this.pruneLogs();
      }
    } catch (error) {
      this.logger.error(`Housekeeping failed: ${(error as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  /** Jobs in quota_reached whose owner has executions left this period go back to scheduled, due at their next cron instant. */
  async restoreQuotaJobs(now: Date): Promise<number> {
    const rows: Array<{ id: string; cron_expression: string; plan: string; used: number }> = await this.db.query(
      `SELECT j.id, j.cron_expression, u.plan, coalesce(p.executions, 0) AS used
       FROM jobs j JOIN users u ON u.id = j.user_id
       LEFT JOIN usage_periods p ON p.user_id = j.user_id AND p.period_start = $1::date
       WHERE j.status = 'quota_reached'`,
      [usagePeriodStart(now)],
    );
    const restorable = rows.filter((r) => Number(r.used) < monthlyExecutionLimit(r.plan));
    if (restorable.length === 0) return 0;
    const restored = returnedRows(await this.db.query(
      `UPDATE jobs j SET status = 'scheduled', next_run_at = v.next_run_at
       FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, next_run_at)
       WHERE j.id = v.id AND j.status = 'quota_reached'
       RETURNING j.id`,
      [restorable.map((r) => r.id), restorable.map((r) => nextCronInstant(r.cron_expression, now))],
    ));
    return restored.length;
  }

  /** Keeps each job's newest 1,000 finished runs, none older than 90 days. Queued and running runs are never pruned. */
  async pruneLogs(): Promise<void> {
    await this.db.query(
      `DELETE FROM job_runs WHERE state = 'done' AND created_at < now() - make_interval(days => $1)`,
      [RETENTION_DAYS],
    );
    await this.db.query(
      `DELETE FROM job_runs WHERE id IN (
         SELECT id FROM (
           SELECT id, row_number() OVER (PARTITION BY job_id ORDER BY created_at DESC, id) AS n
           FROM job_runs WHERE state = 'done'
         ) ranked WHERE n > $1)`,
      [RETENTION_RUNS_PER_JOB],
    );
  }
}
