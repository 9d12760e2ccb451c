import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../../common/database/transaction';
import { returnedRows } from '../../common/database/query-rows';

/** One (user, period) pair per element, as parallel arrays for unnest(). */
export interface PeriodKeys {
  accountIds: string[];
  periods: string[];
}

export interface UsageRow {
  account_id: string;
  period: string;
  executions: number;
}

/** Every SQL statement on `usage_periods`, one per function. */
@Injectable()
export class UsagePeriodsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Creates the missing rows (at zero), in key order. */
  async ensure(tx: Queryable, keys: PeriodKeys): Promise<void> {
    await tx.query(
      `INSERT INTO usage_periods (account_id, period_start)
       SELECT * FROM unnest($1::uuid[], $2::date[]) ORDER BY 1, 2
       ON CONFLICT DO NOTHING`,
      [keys.accountIds, keys.periods],
    );
  }

  /** Locks the rows in a fixed order (user, period), so concurrent claimers queue instead of deadlocking. */
  lockForUpdate(tx: Queryable, keys: PeriodKeys): Promise<UsageRow[]> {
    return tx.query(
      `SELECT u.account_id, to_char(u.period_start, 'YYYY-MM-DD') AS period, u.executions
       FROM usage_periods u JOIN unnest($1::uuid[], $2::date[]) AS w(account_id, period_start)
         ON u.account_id = w.account_id AND u.period_start = w.period_start
       ORDER BY u.account_id, u.period_start
       FOR UPDATE OF u`,
      [keys.accountIds, keys.periods],
    );
  }

  /** Adds `counts[i]` executions to each row (negative counts give executions back, never below zero). */
  async add(tx: Queryable, keys: PeriodKeys, counts: number[]): Promise<void> {
    await tx.query(
      `UPDATE usage_periods u SET executions = greatest(0, u.executions + w.n)
       FROM unnest($1::uuid[], $2::date[], $3::int[]) AS w(account_id, period_start, n)
       WHERE u.account_id = w.account_id AND u.period_start = w.period_start AND w.n <> 0`,
      [keys.accountIds, keys.periods, counts],
    );
  }

  /** The executions each account has used in the period (accounts without a row are absent). */
  usedIn(accountIds: string[], period: string): Promise<UsageRow[]> {
    return this.db.query(
      `SELECT account_id, to_char(period_start, 'YYYY-MM-DD') AS period, executions
       FROM usage_periods WHERE account_id = ANY($1::uuid[]) AND period_start = $2::date`,
      [accountIds, period],
    );
  }

  /**
   * Sets the account's count for the period to zero (a new billing cycle
   * starts the quota afresh), in the transaction `tx`; answers the count it
   * replaced (0 without a row), read under the row's lock.
   */
  async reset(tx: Queryable, accountId: string, period: string): Promise<number> {
    const rows = returnedRows<{ executions: string | number }>(
      await tx.query(
        `WITH old AS (SELECT account_id, period_start, executions FROM usage_periods WHERE account_id = $1 AND period_start = $2::date FOR UPDATE)
         UPDATE usage_periods u SET executions = 0 FROM old
          WHERE u.account_id = old.account_id AND u.period_start = old.period_start
          RETURNING old.executions`,
        [accountId, period],
      ),
    );
    return rows[0] ? Number(rows[0].executions) : 0;
  }
}
