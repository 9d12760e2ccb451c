import { Injectable } from '@nestjs/common';
import { type AuditEvent, type AuditPage, type AuditQuery } from '@cronbeam/shared/audit/audit';
import type { Queryable } from '../../common/database/transaction';
import type { Actor } from './actor';
import { AuditEventsRepository, type AuditEntry, type AuditRow } from './audit-events.repository';

export type { Actor } from './actor';
export type { AuditEntry } from './audit-events.repository';

/** Entries deleted per statement by the retention sweep, so one never holds locks for long. */
const RETENTION_BATCH = 5_000;

/**
 * The account's audit log: reading it (routes for owners and admins) and the entries
 * a transaction adds for a change of several statements. Changes of one
 * statement write their entry in that statement (auditedStatement).
 */
@Injectable()
export class AuditService {
  constructor(private readonly events: AuditEventsRepository) {}

  /** One more statement of the change's transaction `tx`. */
  record(tx: Queryable, actor: Actor, entry: AuditEntry): Promise<void> {
    return this.events.record(tx, actor, entry);
  }

  /**
   * An entry written on its own, once a change made outside this database
   * has succeeded: the managed identity provider's (AWS Cognito's pool),
   * whose failure throws before this. A change of this database's never
   * uses it: its entry is one more statement of its transaction (record).
   */
  recordDone(actor: Actor, entry: AuditEntry): Promise<void> {
    return this.events.recordAlone(actor, entry);
  }

  /** A page of the caller's account's entries, newest first. */
  async page(accountId: string, query: AuditQuery): Promise<AuditPage> {
    const rows = await this.events.list(accountId, query, parseCursor(query.cursor), query.limit + 1);
    const events = rows.slice(0, query.limit);
    return { events: events.map(toEvent), next_cursor: rows.length > query.limit ? events[events.length - 1]!.cursor : null };
  }

  /** Every matching entry, newest first, a batch at a time (the CSV export streams them). */
  async *all(accountId: string, query: Omit<AuditQuery, 'cursor' | 'limit'>, batch: number): AsyncGenerator<AuditEvent[]> {
    let cursor: { at: string; id: string } | null = null;
    for (;;) {
      const rows = await this.events.list(accountId, query, cursor, batch);
      if (rows.length > 0) yield rows.map(toEvent);
      if (rows.length < batch) return;
      cursor = parseCursor(rows[rows.length - 1]!.cursor);
    }
  }

  /** Deletes the entries older than their account's plan keeps (housekeeping), a batch at a time; answers how many. */
  async deleteExpired(): Promise<number> {
    let total = 0;
    for (;;) {
      const deleted = await this.events.deleteExpired(RETENTION_BATCH);
      total += deleted;
      if (deleted < RETENTION_BATCH) return total;
    }
  }
}

function parseCursor(cursor: string | undefined): { at: string; id: string } | null {
  if (!cursor) return null;
  const [at, id] = cursor.split('|');
  return { at: at!, id: id! };
}

function toEvent(row: AuditRow): AuditEvent {
  return {
    id: row.id,
    actor_user_id: row.actor_user_id,
    actor_key_id: row.actor_key_id,
    actor_ip: row.actor_ip,
    request_id: row.request_id,
    action: row.action,
    target_type: row.target_type,
    target_id: row.target_id,
    changes: row.changes,
    created_at: new Date(row.created_at).toISOString(),
  };
}
