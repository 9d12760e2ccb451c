import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { MonitorEvent, MonitorEventKind, MonitorStatus } from '@cronbeam/shared/notifications/monitors';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';
import { ReadDatabase, type ReadFrom } from '../../database/read-database';
import type { FailureEpisode, OutcomeDay } from '../../common/history/outcome-history';
import { auditChanges, auditedStatement, type Actor } from '../audit';

export interface MonitorRow {
  id: string;
  account_id: string;
  name: string;
  token: string;
  period_seconds: number | null;
  cron_expression: string | null;
  time_zone: string;
  grace_seconds: number;
  alert_after_misses: number;
  /** Deadlines missed since the last ping, while fewer than alert_after_misses. */
  missed_deadlines: number;
  channel_ids: string[] | null;
  tags: string[];
  status: MonitorStatus;
  last_ping_at: Date | null;
  started_at: Date | null;
  last_duration_ms: number | null;
  due_at: Date | null;
  created_at: Date;
  /** The latest failure episode (set when the monitor goes down, kept after it recovers): its alerts share it. */
  episode_id: string | null;
  episode_started_at: Date | null;
}

/** The fields a user sets (create and update). */
export type MonitorFields = Pick<MonitorRow, 'name' | 'period_seconds' | 'cron_expression' | 'time_zone' | 'grace_seconds' | 'alert_after_misses' | 'channel_ids' | 'tags'>;

/** A monitor whose status a ping or the sweep just changed, with its status before. */
export type ChangedMonitorRow = MonitorRow & { was: MonitorStatus };

/** Events kept per monitor: the screen shows the latest few dozen. */
const EVENTS_KEPT = 100;

/** A monitor as its audit entries show it (`row`: the row alias); its ping token (the URL's credential) shows only as changed. */
const auditView = (row: string) =>
  `jsonb_build_object('name', ${row}.name, 'period_seconds', ${row}.period_seconds, 'cron_expression', ${row}.cron_expression, 'time_zone', ${row}.time_zone,
    'grace_seconds', ${row}.grace_seconds, 'channel_ids', ${row}.channel_ids, 'alert_after_misses', ${row}.alert_after_misses, 'tags', ${row}.tags,
    'status', ${row}.status, 'token', ${row}.token)`;
const monitorChanges = (before: string, after: string) => auditChanges(before, after, ['token']);
/** A bulk change's single entry (`c` holds the monitors it changed): target the tag, naming every monitor. */
const bulkEntry = (action: string) => ({
  from: 'c',
  action,
  targetType: 'tag',
  targetId: '$2',
  changes: `jsonb_build_object('monitor_ids', jsonb_build_object('before', NULL, 'after', coalesce(jsonb_agg(c.id ORDER BY c.id), '[]')))`,
});

/** The events that are outcomes: a start ping is neither. */
const OUTCOME_KINDS = `'success', 'fail', 'missed'`;

/** Every SQL statement on `monitors` and `monitor_events`, one per function; the account's queries are scoped by account id. */
@Injectable()
export class MonitorsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  /** Oldest first; with a tag, only the monitors carrying it. */
  listOwned(accountId: string, tag: string | null = null): Promise<MonitorRow[]> {
    return this.db.query(`SELECT * FROM monitors WHERE account_id = $1 AND ($2::text IS NULL OR tags @> ARRAY[$2::text]) ORDER BY created_at, id`, [accountId, tag]);
  }

  /** Pauses (as setPausedOwned does) or resumes every monitor of the account carrying `tag`. */
  async setPausedTagged(actor: Actor, accountId: string, tag: string, paused: boolean): Promise<void> {
    await this.db.query(
      ...auditedStatement(actor, {
        ctes: paused
          ? `c AS (UPDATE monitors SET status = 'paused', due_at = NULL, started_at = NULL WHERE account_id = $1 AND tags @> ARRAY[$2::text] AND status <> 'paused' RETURNING id)`
          : `c AS (UPDATE monitors SET status = 'new' WHERE account_id = $1 AND tags @> ARRAY[$2::text] AND status = 'paused' RETURNING id)`,
        params: [accountId, tag],
        ...bulkEntry(paused ? 'monitor.bulk_paused' : 'monitor.bulk_resumed'),
        result: 'SELECT id FROM c',
      }),
    );
  }

  /** Deletes every monitor of the account carrying `tag`; answers the deleted rows. */
  async deleteTagged(actor: Actor, accountId: string, tag: string): Promise<MonitorRow[]> {
    return this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM monitors WHERE account_id = $1 AND tags @> ARRAY[$2::text] RETURNING *)`,
        params: [accountId, tag],
        ...bulkEntry('monitor.bulk_deleted'),
        result: 'SELECT * FROM c',
      }),
    );
  }

  async findOwned(accountId: string, monitorId: string): Promise<MonitorRow | null> {
    const [row] = await this.db.query(`SELECT * FROM monitors WHERE id = $1 AND account_id = $2`, [monitorId, accountId]);
    return row ?? null;
  }

  async findByToken(token: string): Promise<MonitorRow | null> {
    const [row] = await this.db.query(`SELECT * FROM monitors WHERE token = $1`, [token]);
    return row ?? null;
  }

  /** The account's monitors by status, for the dashboard only (the plan's limit reads job_counts on the primary): from the replica. */
  async countByStatus(accountId: string): Promise<Partial<Record<MonitorStatus, number>>> {
    const rows: Array<{ status: MonitorStatus; n: number }> = await this.read.query(
      'replica',`SELECT status, count(*)::int AS n FROM monitors WHERE account_id = $1 GROUP BY status`, [accountId]);
    return Object.fromEntries(rows.map((r) => [r.status, r.n]));
  }

  /** Inserts a monitor, on the creating transaction `tx` (JobLimitService.createWithin's). */
  async insert(tx: Queryable, actor: Actor, accountId: string, token: string, f: MonitorFields): Promise<MonitorRow> {
    const [row]: MonitorRow[] = await tx.query(
      ...auditedStatement(actor, {
        ctes: `c AS (INSERT INTO monitors (account_id, token, name, period_seconds, cron_expression, time_zone, grace_seconds, channel_ids, alert_after_misses, tags)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8::uuid[], $9, $10::text[]) RETURNING *)`,
        params: [accountId, token, f.name, f.period_seconds, f.cron_expression, f.time_zone, f.grace_seconds, f.channel_ids, f.alert_after_misses, f.tags],
        from: 'c',
        action: 'monitor.created',
        targetType: 'monitor',
        targetId: 'c.id',
        changes: monitorChanges('NULL', auditView('c')),
        result: 'SELECT * FROM c',
      }),
    );
    return row!;
  }

  /** Replaces the definition; an up monitor's deadline is the one computed for the new schedule. */
  async updateOwned(actor: Actor, accountId: string, monitorId: string, f: MonitorFields, dueAt: Date | null): Promise<MonitorRow | null> {
    const [row] = returnedRows<MonitorRow>(await this.db.query(
      ...auditedStatement(actor, {
        ctes: `b AS (SELECT * FROM monitors WHERE id = $1 AND account_id = $2 FOR UPDATE),
          c AS (UPDATE monitors m SET name = $3, period_seconds = $4, cron_expression = $5, time_zone = $6, grace_seconds = $7, channel_ids = $8::uuid[],
                  due_at = CASE WHEN m.status = 'up' THEN $9::timestamptz ELSE m.due_at END, alert_after_misses = $10, tags = $11::text[]
                FROM b WHERE m.id = b.id RETURNING m.*)`,
        params: [monitorId, accountId, f.name, f.period_seconds, f.cron_expression, f.time_zone, f.grace_seconds, f.channel_ids, dueAt, f.alert_after_misses, f.tags],
        from: 'c JOIN b ON b.id = c.id',
        action: 'monitor.updated',
        targetType: 'monitor',
        targetId: 'c.id',
        changes: monitorChanges(auditView('b'), auditView('c')),
        result: 'SELECT * FROM c',
      }),
    ));
    return row ?? null;
  }

  /** Paused monitors neither go down nor change on pings; resuming waits for the next ping, as a new monitor does. */
  async setPausedOwned(actor: Actor, accountId: string, monitorId: string, paused: boolean): Promise<MonitorRow | null> {
    const [row] = returnedRows<MonitorRow>(await this.db.query(
      ...auditedStatement(actor, {
        ctes: `b AS (SELECT * FROM monitors WHERE id = $1 AND account_id = $2 FOR UPDATE),
          c AS (${
            paused
              ? `UPDATE monitors m SET status = 'paused', due_at = NULL, started_at = NULL FROM b WHERE m.id = b.id RETURNING m.*`
              : `UPDATE monitors m SET status = CASE WHEN m.status = 'paused' THEN 'new' ELSE m.status END FROM b WHERE m.id = b.id RETURNING m.*`
          })`,
        params: [monitorId, accountId],
        from: 'c JOIN b ON b.id = c.id',
        action: paused ? 'monitor.paused' : 'monitor.resumed',
        targetType: 'monitor',
        targetId: 'c.id',
        changes: monitorChanges(auditView('b'), auditView('c')),
        result: 'SELECT * FROM c',
      }),
    ));
    return row ?? null;
  }

  async deleteOwned(actor: Actor, accountId: string, monitorId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM monitors WHERE id = $1 AND account_id = $2 RETURNING *)`,
        params: [monitorId, accountId],
        from: 'c',
        action: 'monitor.deleted',
        targetType: 'monitor',
        targetId: 'c.id',
        changes: monitorChanges(auditView('c'), 'NULL'),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  /** A success ping at `at`: up, due again at `dueAt`, run time measured from a start ping. A paused monitor only records the time. */
  async ping(monitorId: string, at: Date, dueAt: Date | null): Promise<ChangedMonitorRow | null> {
    const [row] = returnedRows<ChangedMonitorRow>(await this.db.query(
      `UPDATE monitors m SET last_ping_at = $3::timestamptz,
         status = CASE WHEN o.status = 'paused' THEN 'paused' ELSE 'up' END,
         last_duration_ms = CASE WHEN o.started_at IS NOT NULL THEN GREATEST(0, (extract(epoch FROM $3::timestamptz - o.started_at) * 1000)::int) ELSE NULL END,
         started_at = NULL, missed_deadlines = 0,
         due_at = CASE WHEN o.status = 'paused' THEN NULL ELSE $2::timestamptz END
       FROM monitors o WHERE o.id = m.id AND m.id = $1
       RETURNING m.*, o.status AS was`,
      [monitorId, dueAt, at],
    ));
    return row ?? null;
  }

  /** A failure ping: down at once (unless paused); the next success ping brings it up. */
  async fail(monitorId: string): Promise<ChangedMonitorRow | null> {
    const [row] = returnedRows<ChangedMonitorRow>(await this.db.query(
      `UPDATE monitors m SET last_ping_at = now(), started_at = NULL,
         status = CASE WHEN o.status = 'paused' THEN 'paused' ELSE 'down' END, due_at = NULL,
         episode_id = CASE WHEN o.status IN ('paused', 'down') THEN o.episode_id ELSE gen_random_uuid() END,
         episode_started_at = CASE WHEN o.status IN ('paused', 'down') THEN o.episode_started_at ELSE now() END
       FROM monitors o WHERE o.id = m.id AND m.id = $1
       RETURNING m.*, o.status AS was`,
      [monitorId],
    ));
    return row ?? null;
  }

  async start(monitorId: string): Promise<void> {
    await this.db.query(`UPDATE monitors SET started_at = now() WHERE id = $1`, [monitorId]);
  }

  /** Up monitors whose deadline (ping time plus grace) has passed. */
  overdue(): Promise<MonitorRow[]> {
    return this.db.query(`SELECT * FROM monitors WHERE status = 'up' AND due_at < now() ORDER BY due_at LIMIT 500`);
  }

  /**
   * Counts the missed deadline `dueAt`: the monitor goes down (a new episode)
   * at its alert_after_misses-th in a row, else waits for `nextDueAt`. Null
   * when the deadline was already counted (by another instance) or met.
   */
  async missed(monitorId: string, dueAt: Date, nextDueAt: Date | null): Promise<MonitorRow | null> {
    const down = `(missed_deadlines + 1 >= alert_after_misses OR $3::timestamptz IS NULL)`;
    const [row] = returnedRows<MonitorRow>(await this.db.query(
      `UPDATE monitors SET missed_deadlines = CASE WHEN ${down} THEN 0 ELSE missed_deadlines + 1 END,
         status = CASE WHEN ${down} THEN 'down' ELSE status END,
         due_at = CASE WHEN ${down} THEN NULL ELSE $3::timestamptz END,
         episode_id = CASE WHEN ${down} THEN gen_random_uuid() ELSE episode_id END,
         episode_started_at = CASE WHEN ${down} THEN now() ELSE episode_started_at END
       WHERE id = $1 AND status = 'up' AND due_at = $2::timestamptz RETURNING *`,
      [monitorId, dueAt, nextDueAt],
    ));
    return row ?? null;
  }

  async logEvent(monitorId: string, kind: MonitorEventKind, durationMs: number | null): Promise<void> {
    await this.db.query(`INSERT INTO monitor_events (monitor_id, kind, duration_ms) VALUES ($1, $2, $3)`, [monitorId, kind, durationMs]);
  }

  /** The monitor's latest events, newest first (the caller has checked ownership); a log to show: from the replica. */
  async events(monitorId: string, limit: number): Promise<MonitorEvent[]> {
    const rows: Array<{ kind: MonitorEventKind; duration_ms: number | null; created_at: Date }> = await this.read.query(
      'replica',
      `SELECT kind, duration_ms, created_at FROM monitor_events WHERE monitor_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2`,
      [monitorId, limit],
    );
    return rows.map((r) => ({ kind: r.kind, duration_ms: r.duration_ms, at: new Date(r.created_at).toISOString() }));
  }

  /** Each monitor's outcomes per UTC day since `since`: success pings against failure pings and missed deadlines. */
  async outcomeDays(monitorIds: string[], since: Date, from: ReadFrom): Promise<OutcomeDay[]> {
    const rows: Array<{ monitor_id: string; day: number; ok: number; failed: number }> = await this.read.query(
      from,
      `SELECT monitor_id, floor(extract(epoch FROM created_at) / 86400)::int AS day,
              count(*) FILTER (WHERE kind = 'success')::int AS ok, count(*) FILTER (WHERE kind <> 'success')::int AS failed
         FROM monitor_events WHERE monitor_id = ANY($1::uuid[]) AND created_at >= $2 AND kind IN (${OUTCOME_KINDS})
        GROUP BY monitor_id, day`,
      [monitorIds, since],
    );
    return rows.map((r) => ({ subjectId: r.monitor_id, day: r.day, ok: r.ok, failed: r.failed }));
  }

  /** The monitors' latest failure episodes since `since`, newest first: failures and misses in a row, each ended by the success ping after it. */
  async failureEpisodes(monitorIds: string[], since: Date, limit: number, from: ReadFrom): Promise<FailureEpisode[]> {
    const rows: Array<{ monitor_id: string; started_at: Date; resolved_at: Date | null; failures: number }> = await this.read.query(
      from,
      `WITH o AS (
         SELECT monitor_id, created_at, kind = 'success' AS ok,
                count(*) FILTER (WHERE kind = 'success') OVER (PARTITION BY monitor_id ORDER BY created_at, id) AS successes
           FROM monitor_events WHERE monitor_id = ANY($1::uuid[]) AND created_at >= $2 AND kind IN (${OUTCOME_KINDS})),
       ends AS (SELECT monitor_id, successes, created_at FROM o WHERE ok)
       SELECT f.monitor_id, min(f.created_at) AS started_at, count(*)::int AS failures, min(e.created_at) AS resolved_at
         FROM o f LEFT JOIN ends e ON e.monitor_id = f.monitor_id AND e.successes = f.successes + 1
        WHERE NOT f.ok
        GROUP BY f.monitor_id, f.successes
        ORDER BY started_at DESC
        LIMIT $3`,
      [monitorIds, since, limit],
    );
    return rows.map((r) => ({ subjectId: r.monitor_id, startedAt: new Date(r.started_at), resolvedAt: r.resolved_at ? new Date(r.resolved_at) : null, failures: r.failures }));
  }

  /** The account's monitors among `ids`: their names and states (for status pages and badges). */
  summaries(accountId: string, ids: string[]): Promise<Array<{ id: string; name: string; status: MonitorStatus }>> {
    return this.db.query(`SELECT id, name, status FROM monitors WHERE account_id = $1 AND id = ANY($2::uuid[])`, [accountId, ids]);
  }

  /** Keeps the latest EVENTS_KEPT events of each monitor. */
  async pruneEvents(): Promise<void> {
    await this.db.query(
      `DELETE FROM monitor_events WHERE id IN (
         SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY monitor_id ORDER BY created_at DESC, id DESC) AS n FROM monitor_events) ranked WHERE n > $1)`,
      [EVENTS_KEPT],
    );
  }
}
