import { randomUUID } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AlertChannelKind, AlertDelivery } from '@cronbeam/shared/notifications/alert-channels';
import { ResealSweep, resealColumn, type SealedColumn } from '../../common/crypto/reseal-sweep';
import { SecretBox } from '../../common/crypto/secret-box';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';
import type { CallbackDelivery } from '@cronbeam/shared/jobs/run-callbacks';
import { auditChanges, auditedStatement, type Actor } from '../audit';

/** A row of `alert_channels`. */
export interface AlertChannelRow {
  id: string;
  account_id: string;
  name: string;
  kind: AlertChannelKind;
  target: string;
  /** The channel's secret, sealed (a webhook's signing secret, a bot token, a routing key, an access token): read it with channelSecret(). */
  secret: string | null;
  job_ids: string[] | null;
  created_at: Date;
  /** Null: an email channel whose recipient has not confirmed; it receives nothing. */
  verified_at: Date | null;
  /** SHA-256 of the pending verification link's token. */
  verification_token_hash: string | null;
  verification_expires_at: Date | null;
  verification_sent_at: Date | null;
}

/** A pending email channel's verification link, as stored: its token's hash and expiry. */
export interface VerificationLink {
  tokenHash: string;
  expiresAt: Date;
}

/** A channel's secret is sealed at rest, bound to its channel's id. */
const SECRET_COLUMN: SealedColumn = { table: 'alert_channels', column: 'secret', id: 'id', idType: 'uuid', place: (id) => `alert_channels.secret:${id}` };

/** Channels that receive alerts: URL channels, and email channels their recipient confirmed. */
const DELIVERABLE = `verified_at IS NOT NULL`;

export interface NewDelivery {
  /** Null: a run callback (whose job is jobId and run runId). */
  channelId: string | null;
  jobId: string | null;
  runId?: string | null;
  event: AlertDelivery['event'] | 'callback';
  attempt: number;
  status: AlertDelivery['status'];
  responseCode: number | null;
  error: string | null;
}

/** A delivery waiting in `alert_queue`, claimed with a lease: an alert to a channel, or a run callback of a job. */
export type QueuedDelivery = {
  id: string;
  /** The alert (dates as ISO text) or the callback's body, as queued. */
  alert: Record<string, unknown>;
  /** Attempts made before this one. */
  attempts: number;
} & ({ channel: AlertChannelRow; job_id: null } | { channel: null; job_id: string });

/** A run's callback to queue: its id is the queue row's, so a run is queued once. */
export interface NewCallback {
  runId: string;
  jobId: string;
  payload: Record<string, unknown>;
}

type CallbackDeliveryRow = { id: string; run_id: string; attempt: number; status: CallbackDelivery['status']; response_code: number | null; error: string | null; created_at: Date };

type DeliveryRow = { id: string; job_id: string | null; event: AlertDelivery['event']; attempt: number; status: AlertDelivery['status']; response_code: number | null; error: string | null; created_at: Date };

/**
 * A channel as its audit entries show it (`row`: the row alias). An email
 * address or a Telegram chat is shown; any other target is a URL that often
 * is the credential itself (a Slack or Discord webhook), so only its host is
 * shown and the URL only as changed, like the secret.
 */
const PLAIN_TARGETS = `('email', 'telegram')`;
const auditView = (row: string) =>
  `jsonb_build_object('name', ${row}.name, 'kind', ${row}.kind, 'job_ids', ${row}.job_ids,
    'target', CASE WHEN ${row}.kind IN ${PLAIN_TARGETS} THEN ${row}.target END,
    'target_host', CASE WHEN ${row}.kind NOT IN ${PLAIN_TARGETS} THEN substring(${row}.target from '^[a-z][a-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#:]*)') END,
    'target_url', CASE WHEN ${row}.kind NOT IN ${PLAIN_TARGETS} THEN ${row}.target END, 'secret', ${row}.secret)`;
const channelChanges = (before: string, after: string) => auditChanges(before, after, ['target_url', 'secret']);

/** Every SQL statement on `alert_channels`, `alert_deliveries` and `alert_queue` (alerts and run callbacks), one per function; the account's queries are scoped by user. */
@Injectable()
export class AlertChannelsRepository implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly box: SecretBox,
    private readonly resealSweep: ResealSweep,
  ) {}

  onModuleInit(): void {
    this.resealSweep.register('alert_channels.secret', (stopping) => resealColumn(this.db, this.box, SECRET_COLUMN, stopping));
  }

  /** The clear secret of a channel row this repository answered. */
  channelSecret(row: Pick<AlertChannelRow, 'id' | 'secret'>): string | null {
    return row.secret === null ? null : this.box.open(row.secret, SECRET_COLUMN.place(row.id));
  }

  listOwned(accountId: string): Promise<AlertChannelRow[]> {
    return this.db.query(`SELECT * FROM alert_channels WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
  }

  async findOwned(accountId: string, channelId: string): Promise<AlertChannelRow | null> {
    const [row] = await this.db.query(`SELECT * FROM alert_channels WHERE id = $1 AND account_id = $2`, [channelId, accountId]);
    return row ?? null;
  }

  async countOwned(accountId: string): Promise<number> {
    const [row] = await this.db.query(`SELECT count(*)::int AS n FROM alert_channels WHERE account_id = $1`, [accountId]);
    return row.n;
  }

  /** A channel either verified at once (`verified`) or pending with its verification link (sent now). */
  async insert(actor: Actor, accountId: string, fields: Pick<AlertChannelRow, 'name' | 'kind' | 'target' | 'secret' | 'job_ids'>, verification: 'verified' | VerificationLink): Promise<AlertChannelRow> {
    const link = verification === 'verified' ? null : verification;
    // The id is chosen here so the secret can be sealed for its row before it exists.
    const id = randomUUID();
    const [row] = await this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (INSERT INTO alert_channels (id, account_id, name, kind, target, secret, job_ids, verified_at, verification_token_hash, verification_expires_at, verification_sent_at)
               VALUES ($9, $1, $2, $3, $4, $5, $6::uuid[], CASE WHEN $7::text IS NULL THEN now() END, $7, $8, CASE WHEN $7::text IS NOT NULL THEN now() END) RETURNING *)`,
        params: [accountId, fields.name, fields.kind, fields.target, fields.secret === null ? null : this.box.seal(fields.secret, SECRET_COLUMN.place(id)), fields.job_ids, link?.tokenHash ?? null, link?.expiresAt ?? null, id],
        from: 'c',
        action: 'alert_channel.created',
        targetType: 'alert_channel',
        targetId: 'c.id',
        changes: channelChanges('NULL', auditView('c')),
        result: 'SELECT * FROM c',
      }),
    );
    return row;
  }

  /**
   * Replaces a pending channel's link, unless one was sent less than
   * `cooldownSeconds` ago: one statement, so of concurrent resends one wins.
   * Null when the channel is not the account's pending email channel or is cooling down.
   */
  async renewVerification(actor: Actor, accountId: string, channelId: string, link: VerificationLink, cooldownSeconds: number): Promise<AlertChannelRow | null> {
    const [row] = returnedRows<AlertChannelRow>(
      await this.db.query(
        ...auditedStatement(actor, {
          ctes: `c AS (UPDATE alert_channels SET verification_token_hash = $3, verification_expires_at = $4, verification_sent_at = now()
                  WHERE id = $1 AND account_id = $2 AND kind = 'email' AND verified_at IS NULL
                    AND (verification_sent_at IS NULL OR verification_sent_at <= now() - make_interval(secs => $5))
                  RETURNING *)`,
          params: [channelId, accountId, link.tokenHash, link.expiresAt, cooldownSeconds],
          from: 'c',
          action: 'alert_channel.verification_resent',
          targetType: 'alert_channel',
          targetId: 'c.id',
          changes: `'{}'::jsonb`,
          result: 'SELECT * FROM c',
        }),
      ),
    );
    return row ?? null;
  }

  /** The account of the channel whose live link has this token hash (who the verification's entry belongs to), or null. */
  async accountOfToken(tokenHash: string): Promise<string | null> {
    const [row]: Array<{ account_id: string }> = await this.db.query(
      `SELECT account_id FROM alert_channels WHERE verification_token_hash = $1 AND verification_expires_at > now() AND verified_at IS NULL`,
      [tokenHash],
    );
    return row?.account_id ?? null;
  }

  /**
   * Verifies the account's channel whose live link has this token hash and
   * spends the link (one statement: a link works once), with its audit entry.
   */
  async verifyByToken(actor: Actor, tokenHash: string): Promise<AlertChannelRow | null> {
    const [row] = returnedRows<AlertChannelRow>(
      await this.db.query(
        ...auditedStatement(actor, {
          ctes: `c AS (UPDATE alert_channels SET verified_at = now(), verification_token_hash = NULL, verification_expires_at = NULL
                  WHERE verification_token_hash = $1 AND account_id = $2 AND verification_expires_at > now() AND verified_at IS NULL
                  RETURNING *)`,
          params: [tokenHash, actor.accountId],
          from: 'c',
          action: 'alert_channel.verified',
          targetType: 'alert_channel',
          targetId: 'c.id',
          changes: `jsonb_build_object('verified', jsonb_build_object('before', false, 'after', true))`,
          result: 'SELECT * FROM c',
        }),
      ),
    );
    return row ?? null;
  }

  async deleteOwned(actor: Actor, accountId: string, channelId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM alert_channels WHERE id = $1 AND account_id = $2 RETURNING *)`,
        params: [channelId, accountId],
        from: 'c',
        action: 'alert_channel.deleted',
        targetType: 'alert_channel',
        targetId: 'c.id',
        changes: channelChanges(auditView('c'), 'NULL'),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  /** The account's deliverable channels that take this job's alerts: those naming it and those taking every job. */
  forJob(accountId: string, jobId: string): Promise<AlertChannelRow[]> {
    return this.db.query(
      `SELECT * FROM alert_channels WHERE account_id = $1 AND ${DELIVERABLE} AND (job_ids IS NULL OR $2::uuid = ANY(job_ids)) ORDER BY created_at, id`,
      [accountId, jobId],
    );
  }

  /** The deliverable channels a monitor alerts: the listed ones, or (null) those taking every alert. */
  forMonitor(accountId: string, channelIds: string[] | null): Promise<AlertChannelRow[]> {
    return this.db.query(
      `SELECT * FROM alert_channels WHERE account_id = $1 AND ${DELIVERABLE} AND CASE WHEN $2::uuid[] IS NULL THEN job_ids IS NULL ELSE id = ANY($2::uuid[]) END ORDER BY created_at, id`,
      [accountId, channelIds],
    );
  }

  /** Queues a delivery already leased to the caller, who makes its first attempt at once. */
  async enqueueLeased(channelId: string, alert: Record<string, unknown>, leaseMs: number): Promise<string> {
    const [row] = await this.db.query(
      `INSERT INTO alert_queue (channel_id, alert, leased_until) VALUES ($1, $2::jsonb, now() + make_interval(secs => $3::double precision / 1000)) RETURNING id`,
      [channelId, JSON.stringify(alert), leaseMs],
    );
    return row.id;
  }

  /**
   * Queues run callbacks in the transaction that stores their runs, leased to
   * the caller (which makes each first attempt once the runs are committed).
   * A run whose job was deleted meanwhile is skipped; one queued before (its
   * id taken) is not queued again.
   */
  async enqueueCallbacks(tx: Queryable, callbacks: NewCallback[], leaseMs: number): Promise<void> {
    await tx.query(
      `INSERT INTO alert_queue (id, job_id, alert, leased_until)
       SELECT c.run_id, c.job_id, c.payload, now() + make_interval(secs => $2::double precision / 1000)
         FROM jsonb_to_recordset($1::jsonb) AS c(run_id uuid, job_id uuid, payload jsonb)
         JOIN jobs j ON j.id = c.job_id
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(callbacks.map((c) => ({ run_id: c.runId, job_id: c.jobId, payload: c.payload }))), leaseMs],
    );
  }

  /**
   * Leases up to `limit` due deliveries whose lease (if any) has run out.
   * SKIP LOCKED and the lease keep two instances from taking the same one.
   */
  async claimDue(leaseMs: number, limit: number): Promise<QueuedDelivery[]> {
    const rows = returnedRows<{ id: string; alert: Record<string, unknown>; attempts: number; channel: AlertChannelRow | null; job_id: string | null }>(await this.db.query(
      `UPDATE alert_queue q SET leased_until = now() + make_interval(secs => $1::double precision / 1000)
       WHERE q.id IN (
         SELECT id FROM alert_queue WHERE due_at <= now() AND (leased_until IS NULL OR leased_until < now()) ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED)
       RETURNING q.id, q.alert, q.attempts, q.job_id, (SELECT to_jsonb(c) FROM alert_channels c WHERE c.id = q.channel_id) AS channel`,
      [leaseMs, limit],
    ));
    const parsed = <T>(value: T | string): T => (typeof value === 'string' ? (JSON.parse(value) as T) : value);
    return rows.map((r) =>
      r.channel === null
        ? { id: r.id, alert: parsed(r.alert), attempts: r.attempts, channel: null, job_id: r.job_id! }
        : { id: r.id, alert: parsed(r.alert), attempts: r.attempts, channel: parsed(r.channel), job_id: null },
    );
  }

  /** After a failed attempt: released, due again after `waitMs`. */
  async reschedule(queueId: string, attempts: number, waitMs: number): Promise<void> {
    await this.db.query(
      `UPDATE alert_queue SET attempts = $2, leased_until = NULL, due_at = now() + make_interval(secs => $3::double precision / 1000) WHERE id = $1`,
      [queueId, attempts, waitMs],
    );
  }

  /** Delivered, or out of attempts. */
  async dequeue(queueId: string): Promise<void> {
    await this.db.query(`DELETE FROM alert_queue WHERE id = $1`, [queueId]);
  }

  /** Logs an attempt and answers it as logged. */
  async logDelivery(d: NewDelivery): Promise<AlertDelivery> {
    const [row] = returnedRows<DeliveryRow>(
      await this.db.query(
        `INSERT INTO alert_deliveries (channel_id, job_id, run_id, event, attempt, status, response_code, error) VALUES ($1, $2, $8, $3, $4, $5, $6, $7)
         RETURNING id, job_id, event, attempt, status, response_code, error, created_at`,
        [d.channelId, d.jobId, d.event, d.attempt, d.status, d.responseCode, d.error, d.runId ?? null],
      ),
    );
    return toDelivery(row!);
  }

  /** A job's callback attempts, newest first (the caller checked the job is the account's). */
  async callbackDeliveries(jobId: string, limit: number): Promise<CallbackDelivery[]> {
    const rows: CallbackDeliveryRow[] = await this.db.query(
      `SELECT id, run_id, attempt, status, response_code, error, created_at FROM alert_deliveries
        WHERE job_id = $1 AND channel_id IS NULL ORDER BY created_at DESC, attempt DESC LIMIT $2`,
      [jobId, limit],
    );
    return rows.map((r) => ({
      delivery_id: r.id,
      run_id: r.run_id,
      attempt: r.attempt,
      status: r.status,
      response_code: r.response_code,
      error: r.error,
      created_at: new Date(r.created_at).toISOString(),
    }));
  }

  async deliveries(channelId: string, limit: number): Promise<AlertDelivery[]> {
    const rows: DeliveryRow[] = await this.db.query(
      `SELECT id, job_id, event, attempt, status, response_code, error, created_at FROM alert_deliveries WHERE channel_id = $1 ORDER BY created_at DESC, attempt DESC LIMIT $2`,
      [channelId, limit],
    );
    return rows.map(toDelivery);
  }
}

function toDelivery(r: DeliveryRow): AlertDelivery {
  return {
    delivery_id: r.id,
    event: r.event,
    job_id: r.job_id,
    attempt: r.attempt,
    status: r.status,
    response_code: r.response_code,
    error: r.error,
    created_at: new Date(r.created_at).toISOString(),
  };
}
