import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';

/** A stale instance as a takeover sees it: its runs are taken over, those in its dispatch log as possibly sent. */
export interface StaleInstanceRow {
  id: string;
}

/** What a heartbeat learns, in database milliseconds. */
export interface HeartbeatRow {
  now_ms: number;
  /** The oldest heartbeat of the other instances (null: there are none). */
  oldest_other_ms: number | null;
}

/** Seconds as SQL wants them for make_interval. */
const SECONDS = (param: string) => `make_interval(secs => ${param}::double precision / 1000)`;

/**
 * Every SQL statement on `scheduler_instances`, one per function. Each
 * scheduling instance keeps one row (id = its lease owner) whose heartbeat
 * is written with the database's clock, so the hosts' clocks never matter.
 * `taken_over_at` is set by the instance that takes over a stale one; from
 * then on the stale instance can neither beat nor record a dispatch (the
 * statements below require it unset), so it never sends what was taken from
 * it. `scheduler_dispatches` is each instance's log of the run ids it may
 * have sent (appended before each small batch is started; its rows go with
 * the instance's row).
 */
@Injectable()
export class SchedulerInstancesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Creates (or revives) this instance's row with a fresh heartbeat. */
  async register(id: string): Promise<void> {
    await this.db.query(
      `INSERT INTO scheduler_instances (id) VALUES ($1)
       ON CONFLICT (id) DO UPDATE SET heartbeat_at = now(), taken_over_at = NULL`,
      [id],
    );
  }

  /** Refreshes the heartbeat; null when the row was taken over or is gone (the instance must stop sending). */
  async beat(id: string): Promise<HeartbeatRow | null> {
    const [row] = returnedRows<HeartbeatRow>(
      await this.db.query(
        `UPDATE scheduler_instances SET heartbeat_at = now()
         WHERE id = $1 AND taken_over_at IS NULL
         RETURNING (extract(epoch FROM now()) * 1000)::float8 AS now_ms,
           (SELECT (extract(epoch FROM min(o.heartbeat_at)) * 1000)::float8 FROM scheduler_instances o WHERE o.id <> $1) AS oldest_other_ms`,
        [id],
      ),
    );
    return row ? { now_ms: Number(row.now_ms), oldest_other_ms: row.oldest_other_ms === null ? null : Number(row.oldest_other_ms) } : null;
  }

  /**
   * Appends run ids to this instance's dispatch log: they may be sent from
   * now on. False when the row was taken over or is gone: none may be sent.
   * The row is share-locked, so a takeover in progress (which updates it)
   * either sees this entry or makes this statement refuse.
   */
  async recordDispatch(id: string, runIds: string[]): Promise<boolean> {
    const rows = returnedRows<{ instance_id: string }>(
      await this.db.query(
        `WITH me AS (SELECT id FROM scheduler_instances WHERE id = $1 AND taken_over_at IS NULL FOR SHARE)
         INSERT INTO scheduler_dispatches (instance_id, run_ids) SELECT id, $2::uuid[] FROM me
         RETURNING instance_id`,
        [id, runIds],
      ),
    );
    return rows.length === 1;
  }

  /** The run ids in the dispatch logs of the given instances (the caller's transaction holds them taken over). */
  async dispatchedRuns(tx: Queryable, ids: string[]): Promise<string[]> {
    const rows = returnedRows<{ id: string }>(
      await tx.query(`SELECT DISTINCT unnest(run_ids) AS id FROM scheduler_dispatches WHERE instance_id = ANY($1::text[])`, [ids]),
    );
    return rows.map((r) => r.id);
  }

  /** Deletes this instance's dispatch log entries older than `olderThanMs`: their runs are finished or past their lease. */
  async pruneDispatches(id: string, olderThanMs: number): Promise<void> {
    await this.db.query(`DELETE FROM scheduler_dispatches WHERE instance_id = $1 AND created_at < now() - ${SECONDS('$2')}`, [id, olderThanMs]);
  }

  /**
   * Marks the other instances whose heartbeat is older than `staleMs` as
   * taken over and answers them. The rows stay locked until the caller's
   * transaction ends, so their owner's next beat or release waits for it and
   * then finds them taken over.
   */
  takeOverStale(tx: Queryable, id: string, staleMs: number): Promise<StaleInstanceRow[]> {
    return tx
      .query(
        `UPDATE scheduler_instances SET taken_over_at = coalesce(taken_over_at, now())
         WHERE id <> $1 AND heartbeat_at < now() - ${SECONDS('$2')}
         RETURNING id`,
        [id, staleMs],
      )
      .then((result) => returnedRows<StaleInstanceRow>(result));
  }

  /**
   * Marks the instances of other processes as taken over (the embedded
   * database at start: no other process can be alive; other applications
   * in this process, as tests run them, are) and answers them.
   */
  takeOverOtherProcesses(tx: Queryable, processPrefix: string): Promise<StaleInstanceRow[]> {
    return tx
      .query(
        `UPDATE scheduler_instances SET taken_over_at = coalesce(taken_over_at, now())
         WHERE left(id, length($1::text)) <> $1::text
         RETURNING id`,
        [processPrefix],
      )
      .then((result) => returnedRows<StaleInstanceRow>(result));
  }

  /** Deletes the rows of stale instances that have nothing left to take over. */
  async removeStale(tx: Queryable, ids: string[]): Promise<void> {
    await tx.query(`DELETE FROM scheduler_instances WHERE id = ANY($1::text[]) AND taken_over_at IS NOT NULL`, [ids]);
  }

  /** Deletes this instance's row (a graceful stop). */
  async remove(id: string): Promise<void> {
    await this.db.query(`DELETE FROM scheduler_instances WHERE id = $1`, [id]);
  }
}
