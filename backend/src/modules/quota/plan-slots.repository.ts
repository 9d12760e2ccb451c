import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type DataSource, QueryFailedError } from 'typeorm';
import type { Queryable } from '../../common/database/transaction';

/** What plan_slots_within raises (migration 1763811000001). */
const EXCEEDED = { code: 'P0001', message: 'plan slots exceeded' };

/** True when `error` is check()'s refusal. */
export function isPlanSlotsExceeded(error: unknown): boolean {
  const cause = error instanceof QueryFailedError ? (error.driverError as { code?: string; message?: string }) : null;
  return cause?.code === EXCEEDED.code && cause.message === EXCEEDED.message;
}

/**
 * The plan's job limit counts an account's jobs and heartbeat monitors together:
 * the statements that lock and read that count, one per function. It is the
 * one place that reads tables of other modules (`job_counts`, kept by
 * triggers on `jobs`, and `monitors`), read-only, because the count must be
 * read under one lock in the creating transaction whichever module creates.
 */
@Injectable()
export class PlanSlotsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A transaction-scoped advisory lock on the account: its creations of jobs and monitors, on every instance, queue behind each other. */
  async lock(tx: Queryable, accountId: string): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('plan-slots:' || $1::text))`, [accountId]);
  }

  /**
   * Fails (isPlanSlotsExceeded) when the account's jobs and monitors, with what
   * the transaction itself inserted, are more than `max`. Run after lock(),
   * as a statement of its own, it also sees every creation committed before
   * the lock was granted.
   */
  async check(tx: Queryable, accountId: string, max: number): Promise<void> {
    await tx.query(`SELECT plan_slots_within(${USED}, $2)`, [accountId, max]);
  }

  /** The account's committed jobs and monitors (for the 403's count and previews; no lock). */
  async used(accountId: string): Promise<number> {
    const [row]: Array<{ used: number }> = await this.db.query(`SELECT ${USED} AS used`, [accountId]);
    return row!.used;
  }
}

/** The account's ($1) jobs (the trigger-kept counter row, not a count of rows) plus monitors (a handful per account). */
const USED = `(coalesce((SELECT jobs FROM job_counts WHERE account_id = $1), 0) + (SELECT count(*)::int FROM monitors WHERE account_id = $1))::int`;
