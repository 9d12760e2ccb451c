import { randomUUID } from 'node:crypto';
import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AUDIT_MASK } from '@cronbeam/shared/audit/audit';
import { HELD_JOB_STATUSES, JOB_STATUS, type CatchUpPolicy, type Delivery, type OverlapPolicy, type HttpMethod, type IdentityToken, type JobStatus, type ResponseRules, type RetryPolicy } from '@cronbeam/shared/jobs/job-types';
import { ResealSweep, resealColumn, type SealedColumn } from '../../common/crypto/reseal-sweep';
import { SecretBox, SecretUnreadableError } from '../../common/crypto/secret-box';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';
import { ReadDatabase, type ReadFrom } from '../../database/read-database';
import { auditChanges, auditedStatement, systemAuditedStatement, type Actor } from '../audit';
import { JobEntity } from './job.entity';
import type { ScheduleColumns } from './job-schedule-spec';
import { booleanArray, instantArray, uuidArray } from '../../common/database/array-literal';

const HELD = HELD_JOB_STATUSES.map((s) => `'${s}'`).join(', ');

/** The definition columns a user writes; status and run times belong to the scheduler. */
export type JobDefinitionColumns = Pick<JobEntity, 'name' | 'url' | 'method' | 'headers' | 'body' | 'cronExpression' | 'timeZone' | 'everySeconds' | 'scheduleAnchor' | 'runAt' | 'startsAt' | 'endsAt' | 'jitterSeconds' | 'jitterOffsetMs' | 'overlap' | 'catchUp' | 'catchUpWindowSeconds' | 'responseRules' | 'timeoutMs' | 'autoPauseAfter' | 'alertAfterFailures' | 'certificateAlertDays' | 'delivery' | 'tags' | 'retryPolicy' | 'identityToken' | 'callbackUrl' | 'notifyOnFailure'>;

/** What executing a job needs, by job id. */
export interface JobRequestRow {
  id: string;
  url: string;
  method: HttpMethod;
  /** Null when they cannot be decrypted with this server's keys (the run then fails unsent). */
  headers: Record<string, string> | null;
  body: string;
  notify_on_failure: boolean;
  response_rules: ResponseRules | null;
  timeout_ms: number | null;
  delivery: Delivery;
  retry_policy: RetryPolicy | null;
  identity_token: IdentityToken | null;
  callback_url: string | null;
  /** The secrets that sign its requests now, opened: the current one, and a rotated one while it overlaps; empty for a job made before signing. */
  signing_secrets: string[];
  /** skip: a run due while the job's previous run is in flight is recorded as skipped. */
  overlap: OverlapPolicy;
}

/** A job whose next run has come, locked for the claim. */
export interface DueJobRow extends JobRequestRow, ScheduleColumns {
  account_id: string;
  next_run_at: Date;
  /** For the maintenance windows that target a tag. */
  tags: string[];
  catch_up: CatchUpPolicy;
  catch_up_window_seconds: number | null;
}

/** A job applyResults just paused for its consecutive failures (RETURNING sees the new values). */
export interface AutoPausedJobRow {
  id: string;
  account_id: string;
  name: string;
  auto_pause_after: number;
  auto_paused: boolean;
}

/** A job the quota stopped. */
export interface HeldJobRow extends ScheduleColumns {
  id: string;
  account_id: string;
}

/** The schedule columns, as ScheduleColumns names them. */
const SCHEDULE_COLUMNS = 'cron_expression, time_zone, every_seconds, schedule_anchor, run_at, starts_at, ends_at, jitter_offset_ms';

/**
 * A job's headers often carry the customer's credentials for the target:
 * they are stored sealed (one value per job, bound to the job's id). An
 * empty map holds nothing to hide and stays '{}', which keeps jobs without
 * headers free of any decryption.
 */
const NO_HEADERS = '{}';
/** Jobs whose opened headers are kept (about the scheduler's working set); forgetting all at the bound keeps a hit one Map lookup. */
const OPENED_HEADERS_CACHE_SIZE = 20_000;
const HEADERS_COLUMN: SealedColumn = { table: 'jobs', column: 'headers', id: 'id', idType: 'uuid', place: (id) => `jobs.headers:${id}`, clearValues: [NO_HEADERS] };
/**
 * A job's request-signing secrets, sealed like its headers and bound to the job. A rotation moves the sealed
 * current secret to the previous column as it is, so both columns seal for the same place.
 */
const SIGNING_SECRET_COLUMN: SealedColumn = { table: 'jobs', column: 'signing_secret', id: 'id', idType: 'uuid', place: (id) => `jobs.signing_secret:${id}` };
const PREVIOUS_SECRET_COLUMN: SealedColumn = { ...SIGNING_SECRET_COLUMN, column: 'signing_secret_previous' };
/** The columns the scheduler reads to sign a request. */
const SIGNING_COLUMNS = 'identity_token, signing_secret, signing_secret_previous, signing_secret_previous_until';

/**
 * A job as its audit entries show it: the fields the API names, over the
 * row alias `row`. Headers carry the target's credentials and are stored
 * sealed, so the caller gives them (`headers`: SQL of their masked view, see
 * maskedHeaders); the signing secret is shown only as changed or not.
 */
function auditView(row: string, headers: string): string {
  return `jsonb_build_object('name', ${row}.name, 'url', ${row}.url, 'method', ${row}.method, 'headers', ${headers}, 'body', ${row}.body,
    'cron_expression', ${row}.cron_expression, 'time_zone', ${row}.time_zone, 'every_seconds', ${row}.every_seconds, 'run_at', ${row}.run_at,
    'starts_at', ${row}.starts_at, 'ends_at', ${row}.ends_at, 'jitter_seconds', ${row}.jitter_seconds, 'overlap', ${row}.overlap, 'catch_up', ${row}.catch_up,
    'catch_up_window_seconds', ${row}.catch_up_window_seconds, 'response_rules', ${row}.response_rules, 'timeout_seconds', ${row}.timeout_ms / 1000,
    'auto_pause_after', ${row}.auto_pause_after, 'alert_after_failures', ${row}.alert_after_failures, 'certificate_alert_days', ${row}.certificate_alert_days,
    'delivery', ${row}.delivery, 'tags', ${row}.tags, 'retry', ${row}.retry_policy, 'identity_token', ${row}.identity_token, 'callback_url', ${row}.callback_url,
    'notify_on_failure', ${row}.notify_on_failure, 'status', ${row}.status, 'signing_secret', ${row}.signing_secret)`;
}
/** The fields an entry shows as "***" (their values are secrets); headers come masked already, value by value (maskedHeaders). */
const AUDIT_MASKED = ['signing_secret'] as const;
/** Changes of one job (`c` as it is, `b` as it was, either SQL NULL for "did not exist"). */
const jobChanges = (before: string, after: string) => auditChanges(before, after, AUDIT_MASKED);

/** A bulk change's single entry: the ids of the jobs it changed. */
const BULK_CHANGES = `jsonb_build_object('job_ids', jsonb_build_object('before', NULL, 'after', coalesce(jsonb_agg(c.id ORDER BY c.id), '[]')))`;

/** How insert() records the creation: one entry for the job, or one for the whole batch (`summary`). */
export interface CreationAudit {
  actor: Actor;
  action: string;
  summary: boolean;
  /** More fields of a summary entry, each shown as set by the change (an import's counts): `{field: {before: null, after: value}}`. */
  facts?: Record<string, unknown>;
}

/** Puts the quota-stopped jobs among $1 back on their schedule, each due at its $2 (parallel arrays), RETURNING id and account_id. */
const RESTORE_HELD = `UPDATE jobs j SET status = '${JOB_STATUS.scheduled}', next_run_at = v.next_run_at
  FROM unnest($1::uuid[], $2::timestamptz[]) AS v(id, next_run_at)
  WHERE j.id = v.id AND j.status = '${JOB_STATUS.quotaReached}'
  RETURNING j.id, j.account_id`;

/** The columns a job is answered with, read as they are stored (no entity hydration on the hot reads; the API bench's plain server reads the same). */
export const JOB_COLUMNS =
  'id, account_id, name, url, method, headers, body, cron_expression, time_zone, every_seconds, schedule_anchor, run_at, starts_at, ends_at, jitter_seconds, jitter_offset_ms, overlap, catch_up, catch_up_window_seconds, response_rules, timeout_ms, auto_pause_after, alert_after_failures, certificate_alert_days, certificate_expires_at, delivery, tags, retry_policy, identity_token, callback_url, status, notify_on_failure, next_run_at, last_run_at, created_at, updated_at';

interface JobRow {
  id: string;
  account_id: string;
  name: string;
  url: string;
  method: HttpMethod;
  /** Sealed (see HEADERS_COLUMN). */
  headers: string;
  body: string;
  cron_expression: string | null;
  time_zone: string;
  every_seconds: number | null;
  schedule_anchor: Date | null;
  run_at: Date | null;
  starts_at: Date | null;
  ends_at: Date | null;
  jitter_seconds: number;
  jitter_offset_ms: number;
  overlap: OverlapPolicy;
  catch_up: CatchUpPolicy;
  catch_up_window_seconds: number | null;
  response_rules: ResponseRules | null;
  timeout_ms: number | null;
  auto_pause_after: number | null;
  alert_after_failures: number;
  certificate_alert_days: number | null;
  certificate_expires_at: Date | null;
  delivery: Delivery;
  tags: string[];
  retry_policy: RetryPolicy | null;
  identity_token: IdentityToken | null;
  callback_url: string | null;
  status: JobStatus;
  notify_on_failure: boolean;
  next_run_at: Date | null;
  last_run_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

function fromRow(row: JobRow, headers: Record<string, string>): JobEntity {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    url: row.url,
    method: row.method,
    headers,
    body: row.body,
    cronExpression: row.cron_expression,
    timeZone: row.time_zone,
    everySeconds: row.every_seconds,
    scheduleAnchor: row.schedule_anchor,
    runAt: row.run_at,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    jitterSeconds: row.jitter_seconds,
    jitterOffsetMs: row.jitter_offset_ms,
    overlap: row.overlap,
    catchUp: row.catch_up,
    catchUpWindowSeconds: row.catch_up_window_seconds,
    responseRules: row.response_rules,
    timeoutMs: row.timeout_ms,
    autoPauseAfter: row.auto_pause_after,
    alertAfterFailures: row.alert_after_failures,
    certificateAlertDays: row.certificate_alert_days,
    certificateExpiresAt: row.certificate_expires_at,
    delivery: row.delivery,
    tags: row.tags,
    retryPolicy: row.retry_policy,
    identityToken: row.identity_token,
    callbackUrl: row.callback_url,
    status: row.status,
    notifyOnFailure: row.notify_on_failure,
    nextRunAt: row.next_run_at,
    lastRunAt: row.last_run_at,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** A new job's columns, as insert() takes them. */
export interface NewJobColumns extends JobDefinitionColumns {
  status: JobStatus;
  nextRunAt: Date | null;
  /** The secret of its request signature (sealed here). */
  signingSecret: string;
}

/** The sealed signing columns the scheduler reads with each request. */
interface SealedSigning {
  signing_secret: string | null;
  signing_secret_previous: string | null;
  signing_secret_previous_until: Date | null;
}

/** Every SQL statement on `jobs`, one per function (`job_counts` is kept by triggers on `jobs`; the plan's job limit reads it). Queries for a user's job are scoped by user id. */
@Injectable()
export class JobsRepository implements OnModuleInit {
  private readonly logger = new Logger(JobsRepository.name);
  private readonly openedHeaders = new Map<string, Record<string, string>>();
  private readonly openedSecrets = new Map<string, string>();

  constructor(
    @InjectRepository(JobEntity) private readonly jobs: Repository<JobEntity>,
    private readonly box: SecretBox,
    private readonly resealSweep: ResealSweep,
    private readonly read: ReadDatabase,
  ) {}

  onModuleInit(): void {
    this.resealSweep.register('jobs.headers', (stopping) => resealColumn(this.jobs, this.box, HEADERS_COLUMN, stopping));
    this.resealSweep.register('jobs.signing_secret', (stopping) => resealColumn(this.jobs, this.box, SIGNING_SECRET_COLUMN, stopping));
    this.resealSweep.register('jobs.signing_secret_previous', (stopping) => resealColumn(this.jobs, this.box, PREVIOUS_SECRET_COLUMN, stopping));
  }

  /**
   * The secrets that sign a job's requests now (see SealedSigning), opened
   * and kept like headers; one that cannot be decrypted is left out (the
   * target then refuses the request, which the run's log shows).
   */
  private openSigning(jobId: string, row: SealedSigning, now: number): string[] {
    const secrets: string[] = [];
    const open = (stored: string | null, column: SealedColumn) => {
      if (stored === null) return;
      const cacheKey = `${column.column} ${jobId} ${stored}`;
      let secret = this.openedSecrets.get(cacheKey);
      if (secret === undefined) {
        try {
          secret = this.box.open(stored, column.place(jobId));
        } catch (error) {
          if (!(error instanceof SecretUnreadableError)) throw error;
          this.logger.error(`Job ${jobId}: a signing secret cannot be decrypted (${error.message})`);
          return;
        }
        if (this.openedSecrets.size >= OPENED_HEADERS_CACHE_SIZE) this.openedSecrets.clear();
        this.openedSecrets.set(cacheKey, secret);
      }
      secrets.push(secret);
    };
    open(row.signing_secret, SIGNING_SECRET_COLUMN);
    if (row.signing_secret_previous_until !== null && new Date(row.signing_secret_previous_until).getTime() > now) open(row.signing_secret_previous, PREVIOUS_SECRET_COLUMN);
    return secrets;
  }

  /**
   * Gives the user's job a new signing secret; the current one keeps signing
   * until `previousUntil` (null: it stops now). Answers null when the job is
   * not the user's, else whether a previous secret still signs.
   */
  async rotateSigningSecret(actor: Actor, accountId: string, jobId: string, secret: string, previousUntil: Date | null): Promise<{ overlaps: boolean } | null> {
    const [row] = returnedRows<{ overlaps: boolean }>(
      await this.jobs.query(
        ...auditedStatement(actor, {
          ctes: `b AS (SELECT * FROM jobs WHERE id = $1 AND account_id = $2 FOR UPDATE),
            c AS (UPDATE jobs j SET signing_secret = $3,
                    signing_secret_previous = CASE WHEN $4::timestamptz IS NULL THEN NULL ELSE b.signing_secret END,
                    signing_secret_previous_until = CASE WHEN $4::timestamptz IS NULL OR b.signing_secret IS NULL THEN NULL ELSE $4::timestamptz END
                  FROM b WHERE j.id = b.id
                  RETURNING j.*)`,
          params: [jobId, accountId, this.box.seal(secret, SIGNING_SECRET_COLUMN.place(jobId)), previousUntil],
          from: 'c JOIN b ON b.id = c.id',
          action: 'job.signing_secret_rotated',
          targetType: 'job',
          targetId: 'c.id',
          changes: jobChanges(auditView('b', 'NULL'), auditView('c', 'NULL')),
          result: 'SELECT signing_secret_previous IS NOT NULL AS overlaps FROM c',
        }),
      ),
    );
    return row ?? null;
  }

  private sealHeaders(jobId: string, headers: Record<string, string>): string {
    return Object.keys(headers).length === 0 ? NO_HEADERS : this.box.seal(JSON.stringify(headers), HEADERS_COLUMN.place(jobId));
  }

  /**
   * Cheap on the scheduler's path, which reads the same stored value at
   * every run of a job: '{}' costs nothing, and a value opened before is
   * answered from memory (keyed by row and stored text, so a ciphertext
   * moved to another row is still checked). A copy, as callers may change it.
   */
  private openHeaders(jobId: string, stored: string): Record<string, string> {
    if (stored === NO_HEADERS) return {};
    const cacheKey = `${jobId} ${stored}`;
    let headers = this.openedHeaders.get(cacheKey);
    if (!headers) {
      headers = JSON.parse(this.box.open(stored, HEADERS_COLUMN.place(jobId))) as Record<string, string>;
      if (this.openedHeaders.size >= OPENED_HEADERS_CACHE_SIZE) this.openedHeaders.clear();
      this.openedHeaders.set(cacheKey, headers);
    }
    return { ...headers };
  }

  private toEntity(row: JobRow): JobEntity {
    return fromRow(row, this.openHeaders(row.id, row.headers));
  }

  /** Oldest first, so the dashboard's "first 5" are stable; with a tag, only the jobs carrying it. */
  async listOwned(accountId: string, from: ReadFrom, tag: string | null = null): Promise<JobEntity[]> {
    const rows: JobRow[] = await this.read.query(
      from,
      `SELECT ${JOB_COLUMNS} FROM jobs WHERE account_id = $1 AND ($2::text IS NULL OR tags @> ARRAY[$2::text]) ORDER BY created_at, id`,
      [accountId, tag],
    );
    return rows.map((row) => this.toEntity(row));
  }

  /** The user's jobs among `ids`: names and states only (status pages and badges never read a target or its headers). */
  summaries(accountId: string, ids: string[]): Promise<Array<{ id: string; name: string; status: JobStatus }>> {
    return this.jobs.query(`SELECT id, name, status FROM jobs WHERE account_id = $1 AND id = ANY($2::uuid[])`, [accountId, ids]);
  }

  /** Pauses the user's jobs carrying `tag` that are not paused yet, with one audit entry naming them; answers their ids. */
  async pauseTagged(actor: Actor, accountId: string, tag: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.jobs.query(
      ...auditedStatement(actor, {
        ctes: `c AS (UPDATE jobs SET status = '${JOB_STATUS.paused}', next_run_at = NULL
                     WHERE account_id = $1 AND tags @> ARRAY[$2::text] AND status <> '${JOB_STATUS.paused}' RETURNING id)`,
        params: [accountId, tag],
        ...bulkEntry('job.bulk_paused'),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.map((r) => r.id);
  }

  /** Puts paused jobs of the user back on their schedule at the given next runs (only those still paused), with one audit entry for the tag; answers their ids. */
  async resumePaused(actor: Actor, accountId: string, tag: string, jobIds: string[], nextRunAt: (Date | null)[]): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.jobs.query(
      ...auditedStatement(actor, {
        ctes: `c AS (UPDATE jobs j SET status = '${JOB_STATUS.scheduled}', next_run_at = v.next_run_at
                     FROM unnest($3::uuid[], $4::timestamptz[]) AS v(id, next_run_at)
                     WHERE j.id = v.id AND j.account_id = $1 AND j.status = '${JOB_STATUS.paused}'
                     RETURNING j.id)`,
        params: [accountId, tag, jobIds, nextRunAt],
        ...bulkEntry('job.bulk_resumed'),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.map((r) => r.id);
  }

  /** Deletes the user's jobs carrying `tag` (their logs go with them), with one audit entry naming them; answers the deleted ids. */
  async deleteTagged(actor: Actor, accountId: string, tag: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.jobs.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM jobs WHERE account_id = $1 AND tags @> ARRAY[$2::text] RETURNING id)`,
        params: [accountId, tag],
        ...bulkEntry('job.bulk_deleted'),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.map((r) => r.id);
  }

  async findOwned(accountId: string, jobId: string): Promise<JobEntity | null> {
    const rows: JobRow[] = await this.jobs.query(`SELECT ${JOB_COLUMNS} FROM jobs WHERE id = $1 AND account_id = $2`, [jobId, accountId]);
    return rows[0] ? this.toEntity(rows[0]) : null;
  }

  /**
   * Inserts the user's jobs in one statement, on the creating transaction
   * `tx` (JobLimitService.createWithin's, which checks the plan's limit after
   * it), and answers them in the order given. Their created_at follow that
   * order (a microsecond apart), so the oldest-first listing keeps it. Names
   * must differ (the unique index says so anyway). The rows travel as one
   * JSON parameter, however many there are.
   */
  async insert(tx: Queryable, accountId: string, jobs: NewJobColumns[], audit: CreationAudit): Promise<JobEntity[]> {
    const rows = jobs.map((j) => {
      // The id is chosen here so the headers can be sealed for their row before it exists.
      const id = randomUUID();
      return {
        id,
        name: j.name,
        url: j.url,
        method: j.method,
        headers: this.sealHeaders(id, j.headers),
        body: j.body,
        cron_expression: j.cronExpression,
        time_zone: j.timeZone,
        every_seconds: j.everySeconds,
        schedule_anchor: j.scheduleAnchor?.toISOString() ?? null,
        run_at: j.runAt?.toISOString() ?? null,
        starts_at: j.startsAt?.toISOString() ?? null,
        ends_at: j.endsAt?.toISOString() ?? null,
        jitter_seconds: j.jitterSeconds,
        jitter_offset_ms: j.jitterOffsetMs,
        overlap: j.overlap,
        catch_up: j.catchUp,
        catch_up_window_seconds: j.catchUpWindowSeconds,
        response_rules: j.responseRules,
        timeout_ms: j.timeoutMs,
        auto_pause_after: j.autoPauseAfter,
        alert_after_failures: j.alertAfterFailures,
        certificate_alert_days: j.certificateAlertDays,
        delivery: j.delivery,
        tags: j.tags,
        retry_policy: j.retryPolicy,
        identity_token: j.identityToken,
        callback_url: j.callbackUrl,
        signing_secret: this.box.seal(j.signingSecret, SIGNING_SECRET_COLUMN.place(id)),
        status: j.status,
        notify_on_failure: j.notifyOnFailure,
        next_run_at: j.nextRunAt?.toISOString() ?? null,
        audit_headers: maskedHeaders(null, j.headers).after,
      };
    });
    const inserted: JobRow[] = await tx.query(
      ...auditedStatement(audit.actor, {
        ctes: `r AS (SELECT o.n, r.* FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS o(item, n)
         CROSS JOIN LATERAL jsonb_to_record(o.item) AS r(id uuid, name text, url text, method text, headers text, body text, cron_expression text,
              time_zone text, every_seconds integer, schedule_anchor timestamptz, run_at timestamptz, starts_at timestamptz, ends_at timestamptz, jitter_seconds integer,
              jitter_offset_ms integer, overlap text, catch_up text, catch_up_window_seconds integer, response_rules jsonb, timeout_ms integer, auto_pause_after integer, alert_after_failures integer, certificate_alert_days integer, delivery text, tags jsonb, retry_policy jsonb, identity_token jsonb, callback_url text, signing_secret text, status text, notify_on_failure boolean,
              next_run_at timestamptz, audit_headers jsonb)),
       c AS (INSERT INTO jobs (id, account_id, name, url, method, headers, body, cron_expression, time_zone,
                         every_seconds, schedule_anchor, run_at, starts_at, ends_at, jitter_seconds, jitter_offset_ms, overlap, catch_up, catch_up_window_seconds, response_rules, timeout_ms,
                         auto_pause_after, alert_after_failures, certificate_alert_days, delivery, tags, retry_policy, identity_token, callback_url, signing_secret, status, notify_on_failure, next_run_at, created_at, updated_at)
       SELECT r.id, $1, r.name, r.url, r.method, r.headers, r.body, r.cron_expression, r.time_zone,
              r.every_seconds, r.schedule_anchor, r.run_at, r.starts_at, r.ends_at, r.jitter_seconds, r.jitter_offset_ms, r.overlap, r.catch_up, r.catch_up_window_seconds, r.response_rules, r.timeout_ms,
              r.auto_pause_after, r.alert_after_failures, r.certificate_alert_days, r.delivery, ARRAY(SELECT t FROM jsonb_array_elements_text(r.tags) WITH ORDINALITY AS e(t, i) ORDER BY i), r.retry_policy, r.identity_token, r.callback_url, r.signing_secret, r.status, r.notify_on_failure, r.next_run_at,
              now() + (r.n - 1) * interval '1 microsecond', now() + (r.n - 1) * interval '1 microsecond'
         FROM r
       RETURNING *)`,
        ...(audit.summary
          ? {
              params: [accountId, JSON.stringify(rows), JSON.stringify(Object.fromEntries(Object.entries(audit.facts ?? {}).map(([field, after]) => [field, { before: null, after }])))],
              from: 'c',
              targetId: 'NULL',
              changes: `${BULK_CHANGES} || $3::jsonb`,
            }
          : { params: [accountId, JSON.stringify(rows)], from: 'c JOIN r ON r.id = c.id', targetId: 'c.id', changes: jobChanges('NULL', auditView('c', 'r.audit_headers')) }),
        action: audit.action,
        targetType: 'job',
        result: `SELECT ${JOB_COLUMNS} FROM c`,
      }),
    );
    // RETURNING promises no order; names are unique per user, so they pair rows with what was given.
    const byName = new Map(inserted.map((row) => [row.name, row]));
    return jobs.map((j) => this.toEntity(byName.get(j.name)!));
  }

  /**
   * Writes only the definition's columns (the scheduler updates status and
   * run times concurrently), with the audit entry of what changed; a paused
   * job keeps no next run. `headersBefore` are the headers as the caller read
   * them (they are sealed here, so the entry's view of them comes from the
   * caller). Answers false when the job is not the user's.
   */
  async updateDefinition(actor: Actor, accountId: string, jobId: string, columns: JobDefinitionColumns, nextRunAt: Date | null, headersBefore: Record<string, string>): Promise<boolean> {
    const masked = maskedHeaders(headersBefore, columns.headers);
    const rows: unknown[] = await this.jobs.query(
      ...auditedStatement(actor, {
        ctes: `b AS (SELECT * FROM jobs WHERE id = $1 AND account_id = $2 FOR UPDATE),
          c AS (UPDATE jobs j SET name = $3, url = $4, method = $5, headers = $6, body = $7, cron_expression = $8, time_zone = $9, every_seconds = $10,
                  schedule_anchor = $11, run_at = $12, starts_at = $13, ends_at = $14, jitter_seconds = $15, jitter_offset_ms = $16, overlap = $17, catch_up = $18,
                  catch_up_window_seconds = $19, response_rules = $20::jsonb, timeout_ms = $21, auto_pause_after = $22, alert_after_failures = $23,
                  certificate_alert_days = $24, delivery = $25, tags = $26::text[], retry_policy = $27::jsonb, identity_token = $28::jsonb, callback_url = $29,
                  notify_on_failure = $30, next_run_at = CASE WHEN j.status = '${JOB_STATUS.paused}' THEN NULL ELSE $31::timestamptz END, updated_at = now()
                FROM b WHERE j.id = b.id
                RETURNING j.*)`,
        params: [
          jobId,
          accountId,
          columns.name,
          columns.url,
          columns.method,
          this.sealHeaders(jobId, columns.headers),
          columns.body,
          columns.cronExpression,
          columns.timeZone,
          columns.everySeconds,
          columns.scheduleAnchor,
          columns.runAt,
          columns.startsAt,
          columns.endsAt,
          columns.jitterSeconds,
          columns.jitterOffsetMs,
          columns.overlap,
          columns.catchUp,
          columns.catchUpWindowSeconds,
          jsonOrNull(columns.responseRules),
          columns.timeoutMs,
          columns.autoPauseAfter,
          columns.alertAfterFailures,
          columns.certificateAlertDays,
          columns.delivery,
          columns.tags,
          jsonOrNull(columns.retryPolicy),
          jsonOrNull(columns.identityToken),
          columns.callbackUrl,
          columns.notifyOnFailure,
          nextRunAt,
          JSON.stringify(masked.before),
          JSON.stringify(masked.after),
        ],
        from: 'c JOIN b ON b.id = c.id',
        action: 'job.updated',
        targetType: 'job',
        targetId: 'c.id',
        changes: jobChanges(auditView('b', '$32::jsonb'), auditView('c', '$33::jsonb')),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  /**
   * Stores the certificate expiry an https run saw and answers the alert it
   * calls for: 'expiring' within the job's certificate_alert_days, 'expired'
   * once past, each once per certificate (a renewed one starts afresh); null
   * when nothing changed or no alert is due. A row whose expiry and stage stay
   * as they are is neither locked nor written (the common case of every run);
   * a change is one statement on the locked row, so two instances never both alert.
   */
  async recordCertificate(jobId: string, expiresAt: Date | null): Promise<{ accountId: string; stage: 'expiring' | 'expired'; expiresAt: Date } | null> {
    // Null: no certificate was seen (the run failed); the stored expiry is checked again, so one that has passed still alerts.
    const expiry = `coalesce($2::timestamptz, certificate_expires_at)`;
    const stage = `CASE WHEN certificate_alert_days IS NULL THEN NULL
                        WHEN ${expiry} <= now() THEN 'expired'
                        WHEN ${expiry} <= now() + certificate_alert_days * interval '1 day' THEN 'expiring' END`;
    const [row] = returnedRows<{ account_id: string; stage: 'expiring' | 'expired' | null; expires_at: Date }>(
      await this.jobs.query(
        `UPDATE jobs j SET certificate_expires_at = o.expiry, certificate_alert_stage = o.stage
           FROM (SELECT id, ${expiry} AS expiry, ${stage} AS stage FROM jobs
                  WHERE id = $1 AND ${expiry} IS NOT NULL
                    AND (certificate_expires_at IS DISTINCT FROM ${expiry} OR certificate_alert_stage IS DISTINCT FROM (${stage}))
                  FOR UPDATE) o
          WHERE j.id = o.id
          RETURNING j.account_id, o.stage, o.expiry AS expires_at`,
        [jobId, expiresAt],
      ),
    );
    return row?.stage ? { accountId: row.account_id, stage: row.stage, expiresAt: new Date(row.expires_at) } : null;
  }

  /** job_runs and job_alert_states reference jobs ON DELETE CASCADE: the job's logs go with it. Answers false when the job is not the user's. */
  async deleteOwned(actor: Actor, accountId: string, jobId: string, headersBefore: Record<string, string>): Promise<boolean> {
    const rows: unknown[] = await this.jobs.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM jobs WHERE id = $1 AND account_id = $2 RETURNING *)`,
        params: [jobId, accountId, JSON.stringify(maskedHeaders(headersBefore, null).before)],
        from: 'c',
        action: 'job.deleted',
        targetType: 'job',
        targetId: 'c.id',
        changes: jobChanges(auditView('c', '$3::jsonb'), 'NULL'),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  /** Pauses or resumes the user's job (`action` names it in the audit log); answers false when the job is not the user's. */
  async setSchedule(actor: Actor, action: string, accountId: string, jobId: string, status: JobStatus, nextRunAt: Date | null): Promise<boolean> {
    const rows: unknown[] = await this.jobs.query(
      ...auditedStatement(actor, {
        ctes: `b AS (SELECT * FROM jobs WHERE id = $1 AND account_id = $2 FOR UPDATE),
          c AS (UPDATE jobs j SET status = $3, next_run_at = $4, updated_at = now() FROM b WHERE j.id = b.id RETURNING j.*)`,
        params: [jobId, accountId, status, nextRunAt],
        from: 'c JOIN b ON b.id = c.id',
        action,
        targetType: 'job',
        targetId: 'c.id',
        changes: jobChanges(auditView('b', 'NULL'), auditView('c', 'NULL')),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  /** For the dashboard's cards only (the plan's limit reads job_counts on the primary): from the replica. */
  async countByStatus(accountId: string): Promise<Array<{ status: JobStatus; count: string }>> {
    return this.read
      .manager('replica')
      .getRepository(JobEntity)
      .createQueryBuilder('j')
      .select('j.status', 'status')
      .addSelect('count(*)', 'count')
      .where('j.account_id = :accountId', { accountId })
      .groupBy('j.status')
      .getRawMany();
  }

  /** Locks up to `limit` jobs due by `horizon` (skipping those another claimer holds), earliest first. */
  async lockDue(tx: Queryable, horizon: Date, limit: number): Promise<DueJobRow[]> {
    const rows: Array<Omit<DueJobRow, 'headers' | 'signing_secrets'> & SealedSigning & { headers: string }> = await tx.query(
      `SELECT id, account_id, ${SCHEDULE_COLUMNS}, catch_up, catch_up_window_seconds, overlap, next_run_at, tags, url, method, headers, body, notify_on_failure, callback_url, response_rules, timeout_ms, delivery, retry_policy, ${SIGNING_COLUMNS}
       FROM jobs
       WHERE next_run_at <= $1 AND next_run_at IS NOT NULL AND status NOT IN (${HELD})
       ORDER BY next_run_at
       LIMIT $2
       FOR UPDATE SKIP LOCKED`,
      [horizon, limit],
    );
    const now = Date.now();
    return rows.map((row) => this.toRequest(row, now));
  }

  /** Moves claimed jobs to their next due time; a job over its quota goes to quota_reached with no next run. */
  async advance(tx: Queryable, jobIds: string[], nextRunAt: (Date | null)[], overQuota: boolean[]): Promise<void> {
    await tx.query(
      `UPDATE jobs j SET
         next_run_at = CASE WHEN v.over_quota THEN NULL ELSE v.next_run_at END,
         status = CASE WHEN v.over_quota THEN '${JOB_STATUS.quotaReached}' ELSE j.status END
       FROM unnest($1::uuid[], $2::timestamptz[], $3::boolean[]) AS v(id, next_run_at, over_quota)
       WHERE j.id = v.id`,
      [uuidArray(jobIds), instantArray(nextRunAt), booleanArray(overQuota)],
    );
  }

  async requests(tx: Queryable, jobIds: string[]): Promise<JobRequestRow[]> {
    const rows: Array<Omit<JobRequestRow, 'headers' | 'signing_secrets'> & SealedSigning & { headers: string }> = await tx.query(
      `SELECT id, url, method, headers, body, notify_on_failure, callback_url, response_rules, timeout_ms, delivery, retry_policy, overlap, ${SIGNING_COLUMNS} FROM jobs WHERE id = ANY($1::uuid[])`,
      [jobIds],
    );
    const now = Date.now();
    return rows.map((row) => this.toRequest(row, now));
  }

  /** A row as the scheduler reads it, its sealed columns opened (the sealed texts are not passed on). */
  private toRequest<T extends { id: string; headers: string } & SealedSigning>(row: T, now: number): Omit<T, 'headers' | keyof SealedSigning> & { headers: Record<string, string> | null; signing_secrets: string[] } {
    const { signing_secret, signing_secret_previous, signing_secret_previous_until, headers, ...rest } = row;
    return {
      ...rest,
      headers: this.openHeadersToFire(row.id, headers),
      signing_secrets: this.openSigning(row.id, { signing_secret, signing_secret_previous, signing_secret_previous_until }, now),
    };
  }

  /** Where a job's callbacks go now and what signs them; null when the job is gone. */
  async callbackTarget(jobId: string): Promise<{ account_id: string; callback_url: string | null; signing_secrets: string[] } | null> {
    const rows: Array<{ id: string; account_id: string; callback_url: string | null } & SealedSigning> = await this.jobs.query(
      `SELECT id, account_id, callback_url, signing_secret, signing_secret_previous, signing_secret_previous_until FROM jobs WHERE id = $1`,
      [jobId],
    );
    const row = rows[0];
    return row ? { account_id: row.account_id, callback_url: row.callback_url, signing_secrets: this.openSigning(row.id, row, Date.now()) } : null;
  }

  /** One of the user's jobs as a run executes it ("run now"), or null. */
  async requestOwned(accountId: string, jobId: string): Promise<JobRequestRow | null> {
    const rows: Array<Omit<JobRequestRow, 'headers' | 'signing_secrets'> & SealedSigning & { headers: string }> = await this.jobs.query(
      `SELECT id, url, method, headers, body, notify_on_failure, callback_url, response_rules, timeout_ms, delivery, retry_policy, overlap, ${SIGNING_COLUMNS} FROM jobs WHERE id = $1 AND account_id = $2`,
      [jobId, accountId],
    );
    return rows[0] ? this.toRequest(rows[0], Date.now()) : null;
  }

  /**
   * The scheduler's read: a job whose headers cannot be decrypted (a master
   * key missing from the configuration) must not stop the batch it is in for
   * every other user. It answers null: the run is recorded as failed, not
   * sent (without its headers the request would reach the target stripped of
   * its credentials); the reason is logged, and the reseal sweep and the API
   * name the key.
   */
  private openHeadersToFire(jobId: string, stored: string): Record<string, string> | null {
    try {
      return this.openHeaders(jobId, stored);
    } catch (error) {
      if (!(error instanceof SecretUnreadableError)) throw error;
      this.logger.error(`Job ${jobId} is not sent: its headers cannot be decrypted (${error.message})`);
      return null;
    }
  }

  /** The earliest next run of a job the scheduler may fire. */
  async earliestNextRun(): Promise<Date | null> {
    const [row]: Array<{ at: Date | null }> = await this.jobs.query(
      `SELECT min(next_run_at) AS at FROM jobs WHERE next_run_at IS NOT NULL AND status NOT IN (${HELD})`,
    );
    return row?.at ? new Date(row.at) : null;
  }

  /** Jobs the quota stopped (of one account, or of everyone); on `tx` inside the transaction that resumes them. */
  quotaHeld(accountId: string | null, tx: Queryable = this.jobs): Promise<HeldJobRow[]> {
    return tx.query(
      `SELECT id, account_id, ${SCHEDULE_COLUMNS} FROM jobs WHERE status = '${JOB_STATUS.quotaReached}' AND ($1::uuid IS NULL OR account_id = $1)`,
      [accountId],
    );
  }

  /**
   * Puts quota-stopped jobs back on their schedule as a new calendar month
   * begins (no member asked: the service's housekeeping), with one audit
   * entry per account naming the jobs it resumed (`quota.period_started`);
   * answers the ids of those still held, so put back.
   */
  async restoreHeldForNewPeriod(jobIds: string[], nextRunAt: (Date | null)[]): Promise<string[]> {
    const rows = returnedRows<{ id: string }>(
      await this.jobs.query(
        ...systemAuditedStatement({
          ctes: `c AS (${RESTORE_HELD})`,
          params: [jobIds, nextRunAt],
          from: `(SELECT account_id, jsonb_agg(id ORDER BY id) AS ids FROM c GROUP BY account_id) r`,
          accountId: 'r.account_id',
          action: 'quota.period_started',
          targetType: 'account',
          targetId: 'r.account_id',
          changes: `jsonb_build_object('resumed_job_ids', jsonb_build_object('before', NULL, 'after', r.ids))`,
          result: `SELECT id FROM c`,
        }),
      ),
    );
    return rows.map((r) => r.id);
  }

  /** Puts quota-stopped jobs back on their schedule; answers the ids of those still held, so put back. */
  async restoreHeld(jobIds: string[], nextRunAt: (Date | null)[], tx: Queryable = this.jobs): Promise<string[]> {
    const rows = returnedRows<{ id: string }>(
      await tx.query(RESTORE_HELD, [jobIds, nextRunAt]),
    );
    return rows.map((r) => r.id);
  }

  /**
   * Applies stored execution results: the latest final outcome per job becomes
   * its status (a null status, a failure that will be retried, leaves it as it
   * was), and last_run_at moves forward. Paused and quota_reached are the
   * user's or the quota's decision, never overwritten by a result.
   * Consecutive failed runs are counted (a success resets the count, the
   * failures of one batch all count); a job whose count reaches its
   * auto_pause_after is paused in the same statement. Answers the jobs paused so.
   *
   * The job's values are read locked (`o`), not from the statement's
   * snapshot: a claim moving next_run_at, a pause or the quota's hold may
   * commit between the snapshot and the lock, and a value read before it
   * would be written back, undoing that change (a pause lost; a due time
   * already claimed made due again, which the next claim writes once more).
   */
  async applyResults(tx: Queryable, jobIds: string[], statuses: (string | null)[], executedAt: Date[]): Promise<AutoPausedJobRow[]> {
    return returnedRows<AutoPausedJobRow>(
      await tx.query(
        `WITH v AS (
           SELECT DISTINCT ON (id) id, status, executed_at FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) AS u(id, status, executed_at)
           ORDER BY id, executed_at DESC
         ), f AS (
           SELECT id, count(*) FILTER (WHERE status = '${JOB_STATUS.failed}')::int AS failed FROM unnest($1::uuid[], $2::text[]) AS u(id, status) GROUP BY id
         ), o AS (
           SELECT id, status, consecutive_failures, auto_pause_after, last_run_at FROM jobs WHERE id IN (SELECT id FROM v) ORDER BY id FOR NO KEY UPDATE
         ), n AS (
           SELECT o.*, v.status AS outcome, v.executed_at,
                  CASE WHEN v.status = '${JOB_STATUS.success}' THEN 0 ELSE o.consecutive_failures + f.failed END AS failures
           FROM o JOIN v ON v.id = o.id JOIN f ON f.id = o.id
         )
         UPDATE jobs j SET
           consecutive_failures = n.failures,
           status = CASE
             WHEN n.status IN (${HELD}) THEN n.status
             WHEN n.auto_pause_after IS NOT NULL AND n.failures >= n.auto_pause_after THEN '${JOB_STATUS.paused}'
             WHEN n.outcome IS NULL THEN n.status
             ELSE n.outcome END,
           next_run_at = CASE WHEN n.status NOT IN (${HELD}) AND n.auto_pause_after IS NOT NULL AND n.failures >= n.auto_pause_after THEN NULL ELSE j.next_run_at END,
           last_run_at = greatest(n.last_run_at, n.executed_at)
         FROM n
         WHERE j.id = n.id
         RETURNING j.id, j.account_id, j.name, j.auto_pause_after, (n.status NOT IN (${HELD}) AND j.status = '${JOB_STATUS.paused}') AS auto_paused`,
        [uuidArray(jobIds), statuses, instantArray(executedAt)],
      ),
    ).filter((row) => row.auto_paused);
  }

  /** Pauses the account's jobs beyond their oldest `keep` (the newest ones first), inside the plan change's transaction `tx`; answers the paused ids. */
  async pauseNewestBeyond(tx: Queryable, accountId: string, keep: number): Promise<string[]> {
    const rows = returnedRows<{ id: string }>(
      await tx.query(
        `UPDATE jobs SET status = '${JOB_STATUS.paused}', next_run_at = NULL
         WHERE id IN (
           SELECT id FROM jobs WHERE account_id = $1 ORDER BY created_at ASC, id ASC OFFSET $2
         ) AND status <> '${JOB_STATUS.paused}'
         RETURNING id`,
        [accountId, keep],
      ),
    );
    return rows.map((r) => r.id);
  }
}

/** The audit entry of a bulk change (`c` holds the ids it changed): one entry for the tag, naming every job. */
function bulkEntry(action: string): Pick<AuditedChangeFields, 'from' | 'action' | 'targetType' | 'targetId' | 'changes'> {
  return { from: 'c', action, targetType: 'tag', targetId: '$2', changes: BULK_CHANGES };
}
type AuditedChangeFields = Parameters<typeof auditedStatement>[1];

function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

/**
 * A job's headers as its audit entries show them: the names, every value
 * "***"; a value that changed shows as "*** (changed)" after, so an entry
 * says which header changed without saying what it holds. Null: no job.
 */
export function maskedHeaders(before: Record<string, string> | null, after: Record<string, string> | null): { before: Record<string, string> | null; after: Record<string, string> | null } {
  const mask = (headers: Record<string, string>, changed: (name: string) => boolean) =>
    Object.fromEntries(Object.keys(headers).sort().map((name) => [name, changed(name) ? `${AUDIT_MASK} (changed)` : AUDIT_MASK]));
  return {
    before: before && mask(before, () => false),
    after: after && mask(after, (name) => before !== null && name in before && before[name] !== after[name]),
  };
}
