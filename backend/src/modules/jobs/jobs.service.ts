import { randomBytes } from 'node:crypto';
import type { Queryable } from '../../common/database/transaction';
import { Injectable } from '@nestjs/common';
import { JOB_MESSAGES, type ValidJobDefinition } from '@cronbeam/shared/jobs/job-rules';
import { planEveryError, planIntervalError } from '@cronbeam/shared/jobs/plan-schedule';
import { executionsPer30Days, jitterOffsetMs, nextFires, SCHEDULE_LIMITS } from '@cronbeam/shared/jobs/schedule';
import { PLAN_LIMITS } from '@cronbeam/shared/plans';
import { planTimeoutError } from '@cronbeam/shared/jobs/plan-timeout';
import { CALLBACK_MESSAGES } from '@cronbeam/shared/jobs/run-callbacks';
import { SIGNING_MESSAGES, type SigningSecretRotation } from '@cronbeam/shared/jobs/request-signing';
import type { PlanId } from '@cronbeam/shared/plans';
import { JOB_STATUS, type Job, type JobStatus, type SchedulePreview } from '@cronbeam/shared/jobs/job-types';
import type { BulkTagActionRequest, JobBulkTagResult } from '@cronbeam/shared/tags/tags';
import { isUniqueViolation } from '../../common/database/constraint-violation';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import type { ReadFrom } from '../../database/read-database';
import type { Actor } from '../audit';
import { TeamsService } from '../teams/teams.service';
import { HttpExecutor } from '../executor/http-executor.service';
import { TargetPolicy } from '../executor/target-policy.service';
import { JobLimitService } from '../quota/job-limit.service';
import { JobEvents, type JobChangeKind } from './job-events';
import { toJobRequest } from './job-request';
import { toJob } from './job-view';
import { JobEntity } from './job.entity';
import { JobsRepository, type CreationAudit, type JobDefinitionColumns, type NewJobColumns } from './jobs.repository';
import { nextDueOf, resumeDueOf, scheduleColumnsOf, scheduleSpecOf, type ScheduleColumns } from './job-schedule-spec';
import type { JobRequest } from '../runs/runs.service';

export type { JobChange, JobChangeKind } from './job-events';

const NAME_INDEX = 'jobs_account_name_key';
/** Inserts an import tries before giving up on a conflict that keeps coming back (each round refuses what concurrent creations took). */
const IMPORT_ATTEMPTS = 5;

/** A job put back on its schedule, and when it is due. */
export interface ResumedJob {
  id: string;
  nextRunAt: Date | null;
}

/**
 * A user's jobs and their schedules, for both APIs (the dashboard's /api/jobs
 * and the public /prog/jobs) and the modules that act on jobs: every query is
 * scoped by user id, and a job of someone else is indistinguishable from a
 * missing one (404). Schedule changes are announced on JobEvents after they
 * commit. Copies (JobTransferService), test requests (JobTestRunService) and
 * runs of a saved job (JobRunsService) have their own services.
 */
@Injectable()
export class JobsService {
  constructor(
    private readonly jobs: JobsRepository,
    private readonly teams: TeamsService,
    private readonly jobLimit: JobLimitService,
    private readonly executor: HttpExecutor,
    private readonly targets: TargetPolicy,
    private readonly events: JobEvents,
  ) {}

  /** Records the certificate expiry an https run saw; the alert it calls for, if any (see JobsRepository.recordCertificate). */
  recordCertificate(jobId: string, expiresAt: Date | null): Promise<{ accountId: string; stage: 'expiring' | 'expired'; expiresAt: Date } | null> {
    return this.jobs.recordCertificate(jobId, expiresAt);
  }

  /** Every committed change to a job's schedule (the scheduler re-arms on it). */
  get changes$() {
    return this.events.changes$;
  }

  /** Oldest first, so the dashboard's "first 5" are stable; with a tag, only the jobs carrying it. `from` as ReadFrom says (a list to show: 'replica'). */
  async list(accountId: string, from: ReadFrom, tag: string | null = null): Promise<Job[]> {
    return (await this.jobs.listOwned(accountId, from, tag)).map(toJob);
  }

  /**
   * Pauses, resumes or deletes every job of the user carrying the tag, and
   * answers exactly those jobs (after a pause or resume; as they were, for a
   * delete). Resume puts only paused jobs back on their schedule: a job the
   * quota holds stays held.
   */
  async bulkAction(actor: Actor, accountId: string, request: BulkTagActionRequest): Promise<JobBulkTagResult<Job>> {
    const { action, tag } = request;
    let jobs: JobEntity[];
    if (action === 'delete') {
      const tagged = await this.jobs.listOwned(accountId, 'primary', tag);
      const deleted = new Set(await this.jobs.deleteTagged(actor, accountId, tag));
      jobs = tagged.filter((job) => deleted.has(job.id));
      for (const job of jobs) this.announce({ ...job, nextRunAt: null }, 'deleted');
    } else {
      if (action === 'pause') {
        for (const jobId of await this.jobs.pauseTagged(actor, accountId, tag)) this.events.emit({ jobId, accountId, kind: 'paused', nextRunAt: null });
      } else {
        const paused = (await this.jobs.listOwned(accountId, 'primary', tag)).filter((job) => job.status === JOB_STATUS.paused);
        const now = new Date();
        const next = paused.map((job) => resumeDueOf(scheduleColumnsOf(job), now));
        const resumed = new Set(await this.jobs.resumePaused(actor, accountId, tag, paused.map((job) => job.id), next));
        paused.forEach((job, i) => {
          if (resumed.has(job.id)) this.events.emit({ jobId: job.id, accountId, kind: 'resumed', nextRunAt: next[i] });
        });
      }
      jobs = await this.jobs.listOwned(accountId, 'primary', tag);
    }
    return { action, tag, count: jobs.length, jobs: jobs.map(toJob) };
  }

  async get(accountId: string, jobId: string): Promise<Job> {
    return toJob(await this.findOwned(accountId, jobId));
  }

  /** Creates one job; `action` names the creation in the audit log (job.created, job.cloned, job.imported). */
  async create(actor: Actor, accountId: string, definition: ValidJobDefinition, action = 'job.created'): Promise<Job> {
    this.assertAcceptable(definition);
    this.assertFutureSchedule(definition);
    const plan = await this.teams.planOf(accountId);
    this.assertInterval(definition, plan);
    this.assertTimeout(definition, plan);
    const secret = newSigningSecret();
    const [job] = await this.saveUniqueName(() => this.insertCounted(accountId, [definition], [secret], { actor, action, summary: false }));
    this.announce(job!, 'created');
    return { ...toJob(job!), signing_secret: secret };
  }

  /**
   * Creates up to JOB_BULK_MAX jobs in one transaction, all or none: each is
   * checked like a single creation (job rules, target policy, time limit,
   * names unique among the user's jobs and the batch), and the plan's job
   * limit must hold with all of them. A refusal names the first offending
   * item by its index (`['body', 'jobs', i, field]`); the 403 of the job limit
   * is the single creation's. Answers the jobs in the order given.
   */
  async createMany(actor: Actor, accountId: string, definitions: ValidJobDefinition[]): Promise<Job[]> {
    const seen = new Map<string, number>();
    const plan = await this.teams.planOf(accountId);
    definitions.forEach((definition, index) => {
      atItem(index, () => this.assertAcceptable(definition));
      atItem(index, () => this.assertFutureSchedule(definition));
      atItem(index, () => this.assertInterval(definition, plan));
      atItem(index, () => this.assertTimeout(definition, plan));
      const name = definition.name.toLowerCase();
      if (seen.has(name)) throw ApiError.invalidField(['body', 'jobs', index, 'name'], JOB_MESSAGES.nameTaken);
      seen.set(name, index);
    });
    let jobs: JobEntity[];
    const secrets = definitions.map(() => newSigningSecret());
    try {
      jobs = await this.insertCounted(accountId, definitions, secrets, { actor, action: 'job.bulk_created', summary: true });
    } catch (error) {
      if (!isUniqueViolation(error, NAME_INDEX)) throw error;
      // Which item's name an existing job holds (or a creation that committed meanwhile).
      const taken = (await this.jobs.listOwned(accountId, 'primary')).map((j) => j.name.toLowerCase()).find((name) => seen.has(name));
      throw ApiError.invalidField(['body', 'jobs', taken ? seen.get(taken)! : 0, 'name'], JOB_MESSAGES.nameTaken);
    }
    for (const job of jobs) this.announce(job, 'created');
    return jobs.map((job, i) => ({ ...toJob(job), signing_secret: secrets[i] }));
  }

  /**
   * Creates an import's jobs in one transaction with one audit entry
   * (job.imported: the created job ids, how many were created and how many
   * refused, `refusedBefore` counting those the import refused itself). Each
   * definition is checked like a single creation and refused alone when it
   * fails. A concurrent creation may take a name or the last slots of the
   * plan between the import's preview and this transaction; then the
   * definitions that no longer fit are refused and the rest inserted again,
   * so what fits is stored, still in one transaction. Answers, per
   * definition in order, the job or the error that refused it; nothing is
   * written (no entry either) when every one is refused.
   */
  async importMany(actor: Actor, accountId: string, definitions: ValidJobDefinition[], refusedBefore: number): Promise<Array<Job | ApiError>> {
    const plan = await this.teams.planOf(accountId);
    const outcomes: Array<Job | ApiError | null> = definitions.map((definition) => {
      try {
        this.assertAcceptable(definition);
        this.assertFutureSchedule(definition);
        this.assertInterval(definition, plan);
        this.assertTimeout(definition, plan);
        return null;
      } catch (error) {
        if (error instanceof ApiError) return error;
        throw error;
      }
    });
    const secrets = definitions.map(() => newSigningSecret());
    for (let attempt = 1; ; attempt++) {
      const pending = definitions.flatMap((_, i) => (outcomes[i] === null ? [i] : []));
      if (pending.length === 0) break;
      const refused = refusedBefore + definitions.length - pending.length;
      try {
        const jobs = await this.insertCounted(accountId, pending.map((i) => definitions[i]!), pending.map((i) => secrets[i]!), {
          actor,
          action: 'job.imported',
          summary: true,
          facts: { created: pending.length, refused },
        });
        jobs.forEach((job, k) => {
          this.announce(job, 'created');
          outcomes[pending[k]!] = { ...toJob(job), signing_secret: secrets[pending[k]!] };
        });
        break;
      } catch (error) {
        // Each retry refuses at least one more definition, or the conflict was not a concurrent one: a few rounds settle any race.
        const limited = error instanceof ApiError && error.getStatus() === 403;
        if (attempt >= IMPORT_ATTEMPTS || !(limited || isUniqueViolation(error, NAME_INDEX))) throw error;
        if (limited) {
          const slots = await this.jobLimit.slotsLeft(accountId, plan);
          pending.slice(slots).forEach((i) => (outcomes[i] = error));
        } else {
          const taken = new Set((await this.jobs.listOwned(accountId, 'primary')).map((job) => job.name.toLowerCase()));
          const nameTaken = ApiError.invalidField(['body', 'name'], JOB_MESSAGES.nameTaken);
          for (const i of pending) if (taken.has(definitions[i]!.name.toLowerCase())) outcomes[i] = nameTaken;
        }
      }
    }
    return outcomes as Array<Job | ApiError>;
  }

  /** What a creation checks before the database: the target policy, and room for the identity token. */
  private assertAcceptable(definition: ValidJobDefinition): void {
    this.targets.assertAllowed(definition.url);
    if (definition.callback_url !== null) this.assertCallbackAllowed(definition.callback_url);
    if (definition.identity_token && Object.keys(definition.headers).some((name) => name.toLowerCase() === 'authorization')) {
      throw ApiError.invalidField(['body', 'identity_token'], SIGNING_MESSAGES.authorizationHeader);
    }
  }

  /**
   * Inserts the definitions if the plan's job limit holds with all of them
   * (403 'Job limit exceeded' otherwise), through JobLimitService, which
   * serialises them with the user's other creations of jobs and monitors so
   * two cannot both take the last slot.
   */
  private async insertCounted(accountId: string, definitions: ValidJobDefinition[], secrets: string[], audit: CreationAudit): Promise<JobEntity[]> {
    // Read before the insert's transaction: it holds a connection, and the embedded database has only one.
    const plan = await this.teams.planOf(accountId);
    const now = new Date();
    const rows: NewJobColumns[] = definitions.map((definition, i) => {
      const definitionColumns = columns(definition, accountId, null, now);
      return { ...definitionColumns, signingSecret: secrets[i]!, status: JOB_STATUS.pending, nextRunAt: nextDueOf(storedSchedule(definitionColumns), now) };
    });
    return this.jobLimit.createWithin(accountId, plan, (tx) => this.jobs.insert(tx, accountId, rows, audit));
  }

  /** A callback URL passes the jobs' target policy (callbacks go through the same executor); the 422 names `callback_url`. */
  private assertCallbackAllowed(url: string): void {
    try {
      this.targets.assertAllowed(url);
    } catch (error) {
      if (error instanceof ApiError) throw ApiError.invalidField(['body', 'callback_url'], CALLBACK_MESSAGES.privateTarget);
      throw error;
    }
  }

  /** Where a job's callbacks go now and the secrets that sign them (for the delivery queue); null when the job is gone. */
  async callbackTarget(jobId: string): Promise<{ accountId: string; url: string | null; signingSecrets: string[] } | null> {
    const row = await this.jobs.callbackTarget(jobId);
    return row ? { accountId: row.account_id, url: row.callback_url, signingSecrets: row.signing_secrets } : null;
  }

  /** Replaces the definition; the next run is recomputed unless the job is paused. */
  async update(actor: Actor, accountId: string, jobId: string, definition: ValidJobDefinition): Promise<Job> {
    this.assertAcceptable(definition);
    const plan = await this.teams.planOf(accountId);
    this.assertInterval(definition, plan);
    this.assertTimeout(definition, plan);
    const job = await this.findOwned(accountId, jobId);
    const now = new Date();
    const definitionColumns = columns(definition, accountId, job, now);
    const updated = await this.saveUniqueName(() => this.jobs.updateDefinition(actor, accountId, job.id, definitionColumns, nextDueOf(storedSchedule(definitionColumns), now), job.headers));
    if (!updated) throw ApiError.notFound('Job not found');
    const saved = await this.findOwned(accountId, jobId);
    this.announce(saved, 'updated');
    return toJob(saved);
  }

  /**
   * A new signing secret for the job, answered this once; the one it
   * replaces keeps signing for `overlapSeconds` (requests carry both
   * signatures meanwhile), so targets can switch without missing a run.
   */
  async rotateSigningSecret(actor: Actor, accountId: string, jobId: string, overlapSeconds: number): Promise<SigningSecretRotation> {
    const job = await this.findOwned(accountId, jobId);
    const secret = newSigningSecret();
    const until = overlapSeconds > 0 ? new Date(Date.now() + overlapSeconds * 1000) : null;
    const rotated = await this.jobs.rotateSigningSecret(actor, accountId, job.id, secret, until);
    if (!rotated) throw ApiError.notFound('Job not found');
    return { signing_secret: secret, previous_valid_until: rotated.overlaps && until ? until.toISOString() : null };
  }

  /** One of the caller's jobs as a run executes it (404 otherwise), its signing secrets opened. */
  async requestOwned(accountId: string, jobId: string): Promise<JobRequest & { id: string }> {
    const row = isUuid(jobId) ? await this.jobs.requestOwned(accountId, jobId) : null;
    if (!row) throw ApiError.notFound('Job not found');
    return { id: row.id, ...toJobRequest(row) };
  }

  async remove(actor: Actor, accountId: string, jobId: string): Promise<void> {
    const job = await this.findOwned(accountId, jobId);
    if (!(await this.jobs.deleteOwned(actor, accountId, job.id, job.headers))) throw ApiError.notFound('Job not found');
    this.announce({ ...job, nextRunAt: null }, 'deleted');
  }

  pause(actor: Actor, accountId: string, jobId: string): Promise<Job> {
    return this.setSchedule(actor, accountId, jobId, JOB_STATUS.paused, () => null, 'paused');
  }

  resume(actor: Actor, accountId: string, jobId: string): Promise<Job> {
    return this.setSchedule(actor, accountId, jobId, JOB_STATUS.scheduled, (job) => resumeDueOf(scheduleColumnsOf(job), new Date()), 'resumed');
  }

  /** Jobs per status, for the dashboard's cards. */
  async countByStatus(accountId: string): Promise<Partial<Record<JobStatus, number>>> {
    const rows = await this.jobs.countByStatus(accountId);
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.count)]));
  }

  /**
   * Pauses the account's jobs beyond `maxJobs`, the newest first, so the
   * oldest `maxJobs` keep running (billing: a downgrade to a smaller plan),
   * inside the transaction `tx` of the plan change, whose audit entry names
   * them. Answers the paused job ids; announcePaused tells the event streams
   * once `tx` has committed.
   */
  pauseJobsBeyondLimit(tx: Queryable, accountId: string, maxJobs: number): Promise<string[]> {
    return this.jobs.pauseNewestBeyond(tx, accountId, maxJobs);
  }

  /** Tells the account's event streams of the jobs pauseJobsBeyondLimit paused (after its transaction committed). */
  announcePaused(accountId: string, jobIds: string[]): void {
    for (const jobId of jobIds) this.events.emit({ jobId, accountId, kind: 'paused', nextRunAt: null });
  }

  /**
   * Puts the account's jobs held in quota_reached back on their schedule,
   * due at their next cron instant, inside the transaction `tx` of the
   * change that lets them run again (billing: a bigger plan, a new paid
   * period), whose audit entry names them. Answers the jobs resumed with
   * their due times; announceResumed tells the event streams once `tx` has
   * committed.
   */
  async resumeQuotaHeldWithin(tx: Queryable, accountId: string, now = new Date()): Promise<ResumedJob[]> {
    const held = await this.jobs.quotaHeld(accountId, tx);
    if (held.length === 0) return [];
    const next = held.map((j) => nextDueOf(j, now));
    const restored = new Set(await this.jobs.restoreHeld(held.map((j) => j.id), next, tx));
    return held.flatMap((j, i) => (restored.has(j.id) ? [{ id: j.id, nextRunAt: next[i] ?? null }] : []));
  }

  /** Tells the account's event streams (and the schedulers) of the jobs resumeQuotaHeldWithin resumed, after its transaction committed. */
  announceResumed(accountId: string, jobs: ResumedJob[]): void {
    for (const job of jobs) this.events.emit({ jobId: job.id, accountId, kind: 'resumed', nextRunAt: job.nextRunAt });
  }

  /** The user's jobs among `ids` (others and malformed ids left out): names and states, for status pages and badges. */
  summaries(accountId: string, ids: string[]): Promise<Array<{ id: string; name: string; status: JobStatus }>> {
    const valid = ids.filter(isUuid);
    return valid.length ? this.jobs.summaries(accountId, valid) : Promise.resolve([]);
  }

  /** One of the caller's jobs (404 otherwise), for this module's other services. */
  async findOwned(accountId: string, jobId: string): Promise<JobEntity> {
    const job = isUuid(jobId) ? await this.jobs.findOwned(accountId, jobId) : null;
    if (!job) throw ApiError.notFound('Job not found');
    return job;
  }

  private async setSchedule(actor: Actor, accountId: string, jobId: string, status: JobStatus, next: (job: JobEntity) => Date | null, kind: 'paused' | 'resumed'): Promise<Job> {
    const job = await this.findOwned(accountId, jobId);
    if (!(await this.jobs.setSchedule(actor, `job.${kind}`, accountId, job.id, status, next(job)))) throw ApiError.notFound('Job not found');
    const saved = await this.findOwned(accountId, jobId);
    this.announce(saved, kind);
    return toJob(saved);
  }


  /** A schedule may not run one job more often than the plan allows (a six-field cron or an interval can fire every second). */
  private assertInterval(definition: Pick<ValidJobDefinition, 'cron_expression' | 'every_seconds' | 'time_zone'>, plan: PlanId): void {
    if (definition.cron_expression !== null) {
      const error = planIntervalError(definition.cron_expression, definition.time_zone, plan);
      if (error) throw ApiError.invalidField(['body', 'cron_expression'], error);
    }
    if (definition.every_seconds !== null) {
      const error = planEveryError(definition.every_seconds, plan);
      if (error) throw ApiError.invalidField(['body', 'every_seconds'], error);
    }
  }

  /** A new job must have something left to run: a one-off instant, or an end, already past is a mistake (an edit may keep them, the job then has no next run). */
  private assertFutureSchedule(definition: Pick<ValidJobDefinition, 'run_at' | 'ends_at'>): void {
    const now = Date.now();
    if (definition.run_at !== null && Date.parse(definition.run_at) <= now) throw ApiError.invalidField(['body', 'run_at'], JOB_MESSAGES.runAtPast);
    if (definition.ends_at !== null && Date.parse(definition.ends_at) <= now) throw ApiError.invalidField(['body', 'ends_at'], JOB_MESSAGES.endsAtPast);
  }

  /**
   * The next runs of a schedule before it is saved, with the offset its
   * jitter gives this job (it depends on the owner and the name), and the
   * executions it would use in 30 days; refused like a save when the plan
   * does not allow it.
   */
  async preview(accountId: string, request: SchedulePreviewDefinition): Promise<SchedulePreview> {
    const plan = await this.teams.planOf(accountId);
    this.assertInterval(request, plan);
    const now = new Date();
    const definitionColumns = scheduleOnly(request, accountId, now);
    const spec = scheduleSpecOf(storedSchedule(definitionColumns));
    return {
      next_runs: nextFires(spec, request.count, now.getTime()).map((at) => new Date(at).toISOString()),
      executions_per_30_days: executionsPer30Days(spec, now.getTime()),
      jitter_offset_seconds: definitionColumns.jitterOffsetMs / 1000,
      plan,
      execution_quota: PLAN_LIMITS[plan].executionsPerMonth,
    };
  }

  /** A job's request time limit stays within its plan's maximum and the server's ceiling (EXECUTION_TIMEOUT_MS). */
  private assertTimeout(definition: ValidJobDefinition, plan: PlanId): void {
    const error = planTimeoutError(definition.timeout_seconds, plan, this.executor.maxTimeoutMs);
    if (error) throw ApiError.invalidField(['body', 'timeout_seconds'], error);
  }

  /** Runs a write and turns the per-user name index's violation into the form's field error. */
  private async saveUniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error, NAME_INDEX)) throw ApiError.invalidField(['body', 'name'], JOB_MESSAGES.nameTaken);
      throw error;
    }
  }

  private announce(job: Pick<JobEntity, 'id' | 'accountId' | 'nextRunAt'>, kind: JobChangeKind): void {
    this.events.emit({ jobId: job.id, accountId: job.accountId, kind, nextRunAt: job.nextRunAt });
  }
}

/** What the preview takes: a definition's schedule fields, the name (for the jitter offset) and how many runs to show. */
export interface SchedulePreviewDefinition {
  name: string;
  cron_expression: string | null;
  time_zone: string;
  every_seconds: number | null;
  run_at: string | null;
  starts_at: string | null;
  ends_at: string | null;
  jitter_seconds: number;
  count: number;
}

type ScheduleFieldColumns = Pick<JobEntity, 'cronExpression' | 'timeZone' | 'everySeconds' | 'scheduleAnchor' | 'runAt' | 'startsAt' | 'endsAt' | 'jitterSeconds' | 'jitterOffsetMs'>;

/**
 * The stored schedule of a definition. An interval counts from starts_at when
 * given; otherwise from the instant the job got its interval, to the second
 * (kept across edits, so an edit does not shift the runs).
 */
function scheduleOnly(definition: Omit<SchedulePreviewDefinition, 'count'>, accountId: string, now: Date, existing: JobEntity | null = null): ScheduleFieldColumns {
  let anchor: Date | null = null;
  if (definition.every_seconds !== null) {
    if (definition.starts_at !== null) anchor = new Date(definition.starts_at);
    else if (existing?.everySeconds != null && existing.startsAt === null && existing.scheduleAnchor) anchor = existing.scheduleAnchor;
    else anchor = new Date(Math.floor(now.getTime() / 1000) * 1000);
  }
  return {
    cronExpression: definition.cron_expression,
    timeZone: definition.time_zone,
    everySeconds: definition.every_seconds,
    scheduleAnchor: anchor,
    runAt: definition.run_at === null ? null : new Date(definition.run_at),
    startsAt: definition.starts_at === null ? null : new Date(definition.starts_at),
    endsAt: definition.ends_at === null ? null : new Date(definition.ends_at),
    jitterSeconds: definition.jitter_seconds,
    jitterOffsetMs: jitterOffsetMs(Math.min(definition.jitter_seconds, SCHEDULE_LIMITS.maxJitterSeconds), accountId, definition.name),
  };
}

function storedSchedule(columns: ScheduleFieldColumns): ScheduleColumns {
  return {
    cron_expression: columns.cronExpression,
    time_zone: columns.timeZone,
    every_seconds: columns.everySeconds,
    schedule_anchor: columns.scheduleAnchor,
    run_at: columns.runAt,
    starts_at: columns.startsAt,
    ends_at: columns.endsAt,
    jitter_offset_ms: columns.jitterOffsetMs,
  };
}

function columns(definition: ValidJobDefinition, accountId: string, existing: JobEntity | null, now: Date): JobDefinitionColumns {
  return {
    name: definition.name,
    url: definition.url,
    method: definition.method,
    headers: definition.headers,
    body: definition.body,
    ...scheduleOnly(definition, accountId, now, existing),
    overlap: definition.overlap,
    catchUp: definition.catch_up,
    catchUpWindowSeconds: definition.catch_up_window_seconds,
    responseRules: definition.response_rules,
    timeoutMs: definition.timeout_seconds === null ? null : definition.timeout_seconds * 1000,
    autoPauseAfter: definition.auto_pause_after,
    alertAfterFailures: definition.alert_after_failures,
    certificateAlertDays: definition.certificate_alert_days,
    delivery: definition.delivery,
    tags: definition.tags,
    retryPolicy: definition.retry,
    identityToken: definition.identity_token,
    callbackUrl: definition.callback_url,
    notifyOnFailure: definition.notify_on_failure,
  };
}

/** A job's request-signing secret: 32 random bytes, prefixed so it is recognisable in a target's configuration. */
function newSigningSecret(): string {
  return `cbsig_${randomBytes(32).toString('base64url')}`;
}

/** Runs a check of one item of a bulk request, naming the item in a 422's field paths (`body.url` becomes `body.jobs.<index>.url`). */
function atItem(index: number, check: () => void): void {
  try {
    check();
  } catch (error) {
    if (error instanceof ApiError && Array.isArray(error.detail)) {
      throw ApiError.validation(error.detail.map((issue) => ({ ...issue, loc: ['body', 'jobs', index, ...issue.loc.slice(1)] })));
    }
    throw error;
  }
}
