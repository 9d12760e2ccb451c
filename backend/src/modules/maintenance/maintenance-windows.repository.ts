import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { MaintenanceWindowDefinition } from '@cronbeam/shared/notifications/maintenance-windows';
import { returnedRows } from '../../common/database/query-rows';
import { pipelinedTransaction, type Queryable } from '../../common/database/transaction';
import { ReadDatabase, type ReadFrom } from '../../database/read-database';
import { auditChanges, auditedStatement, type Actor } from '../audit';

export interface MaintenanceWindowRow {
  id: string;
  account_id: string;
  name: string;
  job_id: string | null;
  tag: string | null;
  starts_at: Date | null;
  ends_at: Date | null;
  cron_expression: string | null;
  duration_minutes: number | null;
  time_zone: string;
  pause_runs: boolean;
  created_at: Date;
}

const COLUMNS = 'id, account_id, name, job_id, tag, starts_at, ends_at, cron_expression, duration_minutes, time_zone, pause_runs, created_at';

/** A window as its audit entries show it (`row`: the row alias); nothing in it is secret. */
const auditView = (row: string) =>
  `jsonb_build_object('name', ${row}.name, 'job_id', ${row}.job_id, 'tag', ${row}.tag, 'starts_at', ${row}.starts_at, 'ends_at', ${row}.ends_at,
    'cron_expression', ${row}.cron_expression, 'duration_minutes', ${row}.duration_minutes, 'time_zone', ${row}.time_zone, 'pause_runs', ${row}.pause_runs)`;
const windowChanges = (before: string, after: string) => auditChanges(before, after, []);

const values = (w: MaintenanceWindowDefinition) => [w.name, w.job_id, w.tag, w.starts_at, w.ends_at, w.cron_expression, w.duration_minutes, w.time_zone, w.pause_runs];

/**
 * Every SQL statement on `maintenance_windows`, each scoped by owner. A
 * one-off window that has ended is left out of the reads that decide alerts
 * and runs (it can no longer cover anything), not deleted: its owner still sees it.
 */
@Injectable()
export class MaintenanceWindowsRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  listOwned(accountId: string, from: ReadFrom): Promise<MaintenanceWindowRow[]> {
    return this.read.query(from, `SELECT ${COLUMNS} FROM maintenance_windows WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
  }

  async findOwned(accountId: string, windowId: string): Promise<MaintenanceWindowRow | null> {
    const [row] = await this.db.query(`SELECT ${COLUMNS} FROM maintenance_windows WHERE id = $1 AND account_id = $2`, [windowId, accountId]);
    return row ?? null;
  }

  /** The user's windows that may still be open at or after `at` (recurring ones, and one-off ones not yet ended). */
  current(accountId: string, at: Date): Promise<MaintenanceWindowRow[]> {
    return this.db.query(`SELECT ${COLUMNS} FROM maintenance_windows WHERE account_id = $1 AND (ends_at IS NULL OR ends_at > $2) ORDER BY created_at, id`, [accountId, at]);
  }

  /** The pausing windows of these users that may still be open at or after `at`, read inside the scheduler's claim. */
  pausing(tx: Queryable, accountIds: string[], at: Date): Promise<MaintenanceWindowRow[]> {
    return tx.query(`SELECT ${COLUMNS} FROM maintenance_windows WHERE account_id = ANY($1::uuid[]) AND pause_runs AND (ends_at IS NULL OR ends_at > $2) ORDER BY created_at, id`, [
      accountIds,
      at,
    ]);
  }

  /**
   * Inserts a window unless the account has `max` already (null then). The
   * user's row is locked first, so two creations at once cannot both pass the count.
   */
  async insert(actor: Actor, accountId: string, window: MaintenanceWindowDefinition, max: number): Promise<MaintenanceWindowRow | null> {
    const [, rows] = await pipelinedTransaction<[unknown, MaintenanceWindowRow[]]>(this.db, (tx) => [
      tx.query(`SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]),
      tx.query(
        ...auditedStatement(actor, {
          ctes: `c AS (INSERT INTO maintenance_windows (account_id, name, job_id, tag, starts_at, ends_at, cron_expression, duration_minutes, time_zone, pause_runs)
                 SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10 WHERE (SELECT count(*) FROM maintenance_windows WHERE account_id = $1) < $11
                 RETURNING ${COLUMNS})`,
          params: [accountId, ...values(window), max],
          from: 'c',
          action: 'maintenance_window.created',
          targetType: 'maintenance_window',
          targetId: 'c.id',
          changes: windowChanges('NULL', auditView('c')),
          result: `SELECT ${COLUMNS} FROM c`,
        }),
      ),
    ]);
    return rows[0] ?? null;
  }

  /** Replaces the window's definition; null when it is not the user's. */
  async replace(actor: Actor, accountId: string, windowId: string, window: MaintenanceWindowDefinition): Promise<MaintenanceWindowRow | null> {
    const [row] = returnedRows<MaintenanceWindowRow>(
      await this.db.query(
        ...auditedStatement(actor, {
          ctes: `b AS (SELECT * FROM maintenance_windows WHERE id = $1 AND account_id = $2 FOR UPDATE),
            c AS (UPDATE maintenance_windows w SET name = $3, job_id = $4, tag = $5, starts_at = $6, ends_at = $7, cron_expression = $8, duration_minutes = $9, time_zone = $10, pause_runs = $11
                  FROM b WHERE w.id = b.id RETURNING w.*)`,
          params: [windowId, accountId, ...values(window)],
          from: 'c JOIN b ON b.id = c.id',
          action: 'maintenance_window.updated',
          targetType: 'maintenance_window',
          targetId: 'c.id',
          changes: windowChanges(auditView('b'), auditView('c')),
          result: `SELECT ${COLUMNS} FROM c`,
        }),
      ),
    );
    return row ?? null;
  }

  async deleteOwned(actor: Actor, accountId: string, windowId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM maintenance_windows WHERE id = $1 AND account_id = $2 RETURNING *)`,
        params: [windowId, accountId],
        from: 'c',
        action: 'maintenance_window.deleted',
        targetType: 'maintenance_window',
        targetId: 'c.id',
        changes: windowChanges(auditView('c'), 'NULL'),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }
}
