import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { PLAN_IDS, PLAN_LIMITS } from '@cronbeam/shared/plans';
import type { AuditEvent, AuditQuery } from '@cronbeam/shared/audit/audit';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';
import type { Actor } from './actor';

/**
 * A change's statement with its audit entry, as one statement: `ctes` are
 * the change's common table expressions (the row as it was, locked, and the
 * change RETURNING the row as it is), `from` the rows the entry is made of,
 * `result` the statement's answer (a SELECT of the change). The entry is an
 * INSERT in the same WITH, so it exists exactly when the change does: a
 * change that touches no row writes none (unless `from` aggregates, which
 * always yields one row: a bulk change's single entry), and a statement or
 * transaction that fails takes its entry with it.
 */
export interface AuditedChange {
  ctes: string;
  params: unknown[];
  from: string;
  action: string;
  targetType: string;
  /** SQL giving the target's id (text), over `from`. */
  targetId: string;
  /** SQL giving the entry's changes (see auditChanges), over `from`. */
  changes: string;
  result: string;
}

/** The statement and its parameters (the change's, then the entry's). */
export function auditedStatement(actor: Actor, change: AuditedChange): [string, unknown[]] {
  return statementWithEntry(change, (p) => `${p(1)}::uuid, ${p(2)}::uuid, ${p(3)}::uuid, ${p(4)}, ${p(5)}`, [actor.accountId, actor.userId, actor.keyId, actor.ip, actor.requestId]);
}

/**
 * A change the service makes of its own accord (no member, key or request:
 * a new calendar month's quota), as one statement with its entries: like
 * auditedStatement, but `from` may hold rows of several accounts, each
 * giving its own (`accountId`, SQL over `from`), and the actor is the
 * service (no user, key, address or request).
 */
export function systemAuditedStatement(change: AuditedChange & { accountId: string }): [string, unknown[]] {
  return statementWithEntry(change, () => `${change.accountId}, NULL, NULL, NULL, NULL`, []);
}

/**
 * The change's statement with the INSERT of its entries: `who` gives the SQL
 * of the account and actor columns (over `from`, or parameters numbered by
 * `p` after the change's own, whose values are `whoParams`).
 */
function statementWithEntry(change: AuditedChange, who: (p: (i: number) => string) => string, whoParams: unknown[]): [string, unknown[]] {
  const n = change.params.length;
  const p = (i: number) => `$${n + i}`;
  const k = whoParams.length;
  const sql = `WITH ${change.ctes},
    audit_entry AS (
      INSERT INTO audit_events (account_id, actor_user_id, actor_key_id, actor_ip, request_id, action, target_type, target_id, changes)
      SELECT ${who(p)}, ${p(k + 1)}, ${p(k + 2)}, (${change.targetId})::text, ${change.changes}
        FROM ${change.from}
    )
    ${change.result}`;
  return [sql, [...change.params, ...whoParams, change.action, change.targetType]];
}

/**
 * SQL of an entry's changes: the fields of two views (jsonb objects of a
 * resource's audited fields, SQL NULL where it did not exist) that differ,
 * `{field: {before, after}}`, with the `masked` fields' values shown as "***".
 */
export function auditChanges(before: string, after: string, masked: readonly string[]): string {
  const list = masked.map((field) => `'${field.replace(/'/g, "''")}'`).join(', ');
  return `audit_changes(${before}, ${after}, ARRAY[${list}]::text[])`;
}

/** An entry written as one more statement of a change's transaction (pipelinedTransaction). */
export interface AuditEntry {
  action: string;
  targetType: string;
  targetId: string | null;
  /** Already masked: `{field: {before, after}}`. */
  changes: Record<string, { before: unknown; after: unknown }>;
}

interface AuditRow {
  id: string;
  cursor: string;
  actor_user_id: string | null;
  actor_key_id: string | null;
  actor_ip: string | null;
  request_id: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  changes: AuditEvent['changes'];
  created_at: Date;
}

/** Days an account's entries are kept, by plan (PLAN_LIMITS.auditRetentionDays), as SQL over the account's `plan`. */
const RETENTION_DAYS = `CASE acc.plan ${PLAN_IDS.map((plan) => `WHEN '${plan}' THEN ${PLAN_LIMITS[plan].auditRetentionDays}`).join(' ')} END`;

/** Every SQL statement on `audit_events`, one per function, each scoped by account. */
@Injectable()
export class AuditEventsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Adds an entry to the transaction `tx` of the change it describes. */
  async record(tx: Queryable, actor: Actor, entry: AuditEntry): Promise<void> {
    await tx.query(
      `INSERT INTO audit_events (account_id, actor_user_id, actor_key_id, actor_ip, request_id, action, target_type, target_id, changes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb)`,
      [actor.accountId, actor.userId, actor.keyId, actor.ip, actor.requestId, entry.action, entry.targetType, entry.targetId, JSON.stringify(entry.changes)],
    );
  }

  /** An entry in a statement of its own (see AuditService.recordDone). */
  recordAlone(actor: Actor, entry: AuditEntry): Promise<void> {
    return this.record(this.db, actor, entry);
  }

  /**
   * The account's entries matching the filters, newest first, `limit` of
   * them after the cursor (the last entry of the page before). `action`
   * matches exactly, or every action of a resource when it has no dot
   * ("job": job.created, job.deleted...).
   */
  async list(accountId: string, query: Pick<AuditQuery, 'actor' | 'target' | 'action' | 'since' | 'until'>, cursor: { at: string; id: string } | null, limit: number): Promise<AuditRow[]> {
    return this.db.query(
      `SELECT id::text, created_at::text || '|' || id AS cursor, actor_user_id, actor_key_id, actor_ip, request_id, action, target_type, target_id, changes, created_at
         FROM audit_events
        WHERE account_id = $1
          AND ($2::uuid IS NULL OR actor_user_id = $2 OR actor_key_id = $2)
          AND ($3::text IS NULL OR target_id = $3)
          AND ($4::text IS NULL OR action = $4 OR (strpos($4, '.') = 0 AND action LIKE $4 || '.%'))
          AND ($5::timestamptz IS NULL OR created_at >= $5)
          AND ($6::timestamptz IS NULL OR created_at < $6)
          AND ($7::timestamptz IS NULL OR (created_at, id) < ($7::timestamptz, $8::bigint))
        ORDER BY created_at DESC, id DESC
        LIMIT $9`,
      [accountId, query.actor ?? null, query.target ?? null, query.action ?? null, query.since ?? null, query.until ?? null, cursor?.at ?? null, cursor?.id ?? null, limit],
    );
  }

  /** Deletes up to `batch` entries older than their account's plan keeps them; answers how many. */
  async deleteExpired(batch: number): Promise<number> {
    const rows = returnedRows<{ id: string }>(
      await this.db.query(
        `DELETE FROM audit_events WHERE id IN (
           SELECT a.id FROM audit_events a JOIN accounts acc ON acc.id = a.account_id
            WHERE a.created_at < now() - make_interval(days => ${RETENTION_DAYS})
            LIMIT $1)
         RETURNING id`,
        [batch],
      ),
    );
    return rows.length;
  }
}

export type { AuditRow };
