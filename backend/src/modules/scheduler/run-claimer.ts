import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { RUN_OUTCOME, RUN_TRIGGER } from '@cronbeam/shared/jobs/job-types';
import { pausedNote } from '@cronbeam/shared/notifications/maintenance-windows';
import type { Queryable } from '../../common/database/transaction';
import { TeamsService } from '../teams/teams.service';
import { JobScheduleService, scheduleKey, scheduleSpecOf, toJobRequest } from '../jobs/job-schedule.service';
import { MaintenanceWindowsService, pausingKey } from '../maintenance/maintenance-windows.service';
import { QuotaService, usagePeriodOf, type QuotaRequest } from '../quota/quota.service';
import { RunsService, toClaimedRun, type ClaimedRun, type LeasedRunRow, type NewRun } from '../runs/runs.service';
import { planDue, type CatchUp, type DuePlan } from './due-instants';
import { InstanceLiveness } from './instance-liveness';
import { SchedulerSettings } from './scheduler-settings';

/**
 * The scheduler's short transactions, each across the owners of the tables
 * it changes: jobs (due jobs locked FOR UPDATE SKIP LOCKED, moved to their
 * next due time), usage periods (executions reserved) and runs (inserted
 * leased to this instance). Any number of instances claim side by side
 * without waiting on or double-taking each other's rows, and the unique
 * (job_id, scheduled_for, attempt) index makes a second firing of the same
 * due time impossible even if two claims ever raced.
 */
@Injectable()
export class RunClaimer {
  private readonly logger = new Logger(RunClaimer.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly settings: SchedulerSettings,
    private readonly jobs: JobScheduleService,
    private readonly runs: RunsService,
    private readonly quota: QuotaService,
    private readonly teams: TeamsService,
    private readonly liveness: InstanceLiveness,
    private readonly maintenance: MaintenanceWindowsService,
  ) {}

  /**
   * Claims jobs due by `horizon`: advances each one's next_run_at, inserts its
   * run leased to this instance (or skipped for quota, or missed after an
   * outage), counts usage. Returns the runs to execute; `more` when the batch was full.
   */
  async claimDueJobs(horizon: Date, now: number): Promise<{ runs: ClaimedRun[]; more: boolean }> {
    return this.db.transaction(async (tx) => {
      const jobs = await this.jobs.lockDue(tx, horizon, this.settings.batchSize);
      if (jobs.length === 0) return { runs: [], more: false };
      const plans = await this.teams.plansOf(jobs.map((j) => j.account_id), tx);

      // Jobs of a burst share their schedule, policy and due time: plan each such combination once per batch.
      const planned = new Map<string, DuePlan>();
      const claims = jobs.map((job) => {
        const dueAt = new Date(job.next_run_at);
        const catchUp: CatchUp = { policy: job.catch_up, windowMs: job.catch_up_window_seconds === null ? null : job.catch_up_window_seconds * 1000 };
        const key = `${dueAt.getTime()} ${catchUp.policy} ${catchUp.windowMs} ${scheduleKey(job)}`;
        let due = planned.get(key);
        if (!due) {
          due = planDue(scheduleSpecOf(job), catchUp, dueAt, now, this.settings.pollIntervalMs * 2 + this.settings.lookaheadMs);
          planned.set(key, due);
        }
        const plan = plans.get(job.account_id) ?? 'free';
        return { job, due, plan };
      });
      // A run due inside a window that pauses runs is recorded as skipped, unsent and not counted against the quota.
      const paused = await this.maintenance.pausing(tx, claims.flatMap(({ job, due }) => due.fires.map((fire) => ({ id: job.id, account_id: job.account_id, tags: job.tags, fire: fire.at }))));
      // Every other instant that fires counts toward its month's quota (an all_within catch-up may fire several at once).
      const wanted = new Map<string, QuotaRequest>();
      for (const { job, due, plan } of claims) {
        for (const fire of due.fires) {
          if (paused.has(pausingKey(job.id, fire.at))) continue;
          const period = usagePeriodOf(fire.at);
          const k = this.quota.grantKey(job.account_id, period);
          const entry = wanted.get(k) ?? { accountId: job.account_id, plan, period, wanted: 0 };
          entry.wanted++;
          wanted.set(k, entry);
        }
      }
      const granted = await this.quota.reserve(tx, [...wanted.values()]);

      const newRuns: NewRun[] = [];
      const overQuota = new Set<string>();
      for (const { job, due, plan } of claims) {
        for (const missed of due.missed) {
          newRuns.push({ jobId: job.id, accountId: job.account_id, trigger: RUN_TRIGGER.schedule, scheduledFor: missed, outcome: RUN_OUTCOME.missed, error: due.missedReason });
        }
        if (due.moreMissed) this.logger.warn(`Job ${job.id}: more than ${due.missed.length} due times were missed; the oldest ones are recorded`);
        for (const fire of due.fires) {
          const pausedBy = paused.get(pausingKey(job.id, fire.at));
          if (pausedBy !== undefined) {
            newRuns.push({ jobId: job.id, accountId: job.account_id, trigger: RUN_TRIGGER.schedule, scheduledFor: fire.at, outcome: RUN_OUTCOME.skipped, skipReason: 'maintenance', error: pausedNote(pausedBy) });
            continue;
          }
          const k = this.quota.grantKey(job.account_id, usagePeriodOf(fire.at));
          const left = granted.get(k) ?? 0;
          if (left > 0) {
            granted.set(k, left - 1);
            newRuns.push({ jobId: job.id, accountId: job.account_id, trigger: fire.recovery ? RUN_TRIGGER.recovery : RUN_TRIGGER.schedule, scheduledFor: fire.at, outcome: 'leased', timeoutMs: job.timeout_ms });
          } else {
            overQuota.add(job.id);
            newRuns.push({
              jobId: job.id,
              accountId: job.account_id,
              trigger: RUN_TRIGGER.schedule,
              scheduledFor: fire.at,
              outcome: RUN_OUTCOME.skipped,
              skipReason: 'quota',
              error: `Skipped: the monthly execution quota of ${this.quota.executionLimit(plan)} for the ${plan} plan is used up`,
            });
          }
        }
      }

      const leased = await this.runs.insertClaimed(tx, newRuns, now);
      await this.jobs.advance(tx, claims.map(({ job, due }) => ({ jobId: job.id, next: due.next, overQuota: overQuota.has(job.id) })));
      const requests = new Map(jobs.map((j) => [j.id, j]));
      return {
        runs: leased.map((row) => {
          const job = requests.get(row.job_id)!;
          return toClaimedRun(row, toJobRequest(job));
        }),
        more: jobs.length === this.settings.batchSize,
      };
    });
  }

  /** Claims queued runs (retries) due by `horizon`, and runs whose lease expired because their instance died. */
  async claimQueuedRuns(horizon: Date, now: number): Promise<{ runs: ClaimedRun[]; more: boolean }> {
    const limit = this.settings.batchSize;
    const queued = await this.db.transaction((tx) => this.withRequests(tx, this.runs.leaseQueued(tx, horizon, limit, now)));
    const orphaned = await this.db.transaction((tx) => this.withRequests(tx, this.runs.leaseExpired(tx, limit, now)));
    if (orphaned.length > 0) this.logger.warn(`Took over ${orphaned.length} run(s) whose lease expired`);
    return { runs: [...queued, ...orphaned], more: queued.length === limit || orphaned.length === limit };
  }

  /**
   * Takes over the runs of instances whose heartbeat went stale (see
   * InstanceLiveness), keeping their ids: those in a dead instance's dispatch
   * log come back uncertain (the job's delivery decides), the others were
   * never sent. With `otherProcesses` (the embedded database at start, where
   * no other process can be alive) the runs of every other process are taken. A dead
   * instance's row is deleted once nothing of it is left to take.
   */
  async takeOverDead(now: number, otherProcesses = false): Promise<{ runs: ClaimedRun[]; more: boolean }> {
    const limit = this.settings.batchSize;
    const taken = await this.db.transaction(async (tx) => {
      const dead = (await this.liveness.takeOverStale(tx, otherProcesses)).map((d) => d.id);
      if (dead.length === 0 && !otherProcesses) return [];
      const dispatched = await this.liveness.dispatchedBy(tx, dead);
      const runs = await this.withRequests(tx, this.runs.leaseOfDead(tx, { owners: dead, otherProcesses }, dispatched, limit, now));
      if (runs.length < limit) await this.liveness.forget(tx, dead);
      if (runs.length > 0) {
        const uncertain = runs.filter((r) => r.uncertain).length;
        this.logger.warn(`Took over ${runs.length} run(s) of ${otherProcesses ? 'the previous process' : `${dead.length} instance(s) whose heartbeat stopped`}: ${runs.length - uncertain} never sent, ${uncertain} possibly sent`);
      }
      return runs;
    });
    return { runs: taken, more: taken.length === limit };
  }

  private async withRequests(tx: Queryable, leasing: Promise<LeasedRunRow[]>): Promise<ClaimedRun[]> {
    const rows = await leasing;
    const requests = await this.jobs.requests(tx, rows.map((r) => r.job_id));
    // A leased run's job cannot vanish inside the transaction (runs go with their job); the guard is for types.
    const runs = rows.filter((r) => requests.has(r.job_id)).map((r) => toClaimedRun(r, requests.get(r.job_id)!));
    await this.runs.extendLeases(tx, runs, Date.now());
    return runs;
  }

  /** Gives back runs claimed ahead of time but not started (shutdown), so another instance fires them on time. */
  release(runIds: string[]): Promise<void> {
    return this.runs.release(runIds);
  }

  /** Undoes claims of a job paused (or deleted) before their instant (see RunsService.unclaim). */
  unclaim(runIds: string[]): Promise<void> {
    return this.runs.unclaim(runIds);
  }

  /** The earliest instant anything could become due: a job's next run, a queued retry, or an expiring lease. */
  async earliestDue(): Promise<Date | null> {
    const [job, run] = await Promise.all([this.jobs.earliestNextRun(), this.runs.earliestDue()]);
    if (!job || !run) return job ?? run;
    return job < run ? job : run;
  }
}
