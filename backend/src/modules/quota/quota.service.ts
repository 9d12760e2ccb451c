import { Injectable } from '@nestjs/common';
import { isPlanId, PLAN_LIMITS } from '@cronbeam/shared/plans';
import type { Queryable } from '../../common/database/transaction';
import { UsagePeriodsRepository } from './usage-periods.repository';

/**
 * The usage period containing `instant`: the first day of its UTC calendar
 * month, 'YYYY-MM-DD'. The only place a period is computed (the SQL receives it).
 */
export function usagePeriodOf(instant: Date): string {
  return `${instant.getUTCFullYear()}-${String(instant.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

/** Executions a user wants to start now in one period. */
export interface QuotaRequest {
  accountId: string;
  plan: string;
  period: string;
  wanted: number;
}

/** Executions given back to a period (claims undone before they ran). */
export interface QuotaRefund {
  accountId: string;
  period: string;
  count: number;
}

const key = (accountId: string, period: string) => `${accountId}|${period}`;

/**
 * The monthly execution quota (`usage_periods`; the plan's job limit is
 * JobLimitService's). Executions are reserved inside the caller's
 * transaction, so a claim that rolls back gives its reservation back with it.
 */
@Injectable()
export class QuotaService {
  constructor(private readonly periods: UsagePeriodsRepository) {}

  executionLimit(plan: string): number {
    return PLAN_LIMITS[isPlanId(plan) ? plan : 'free'].executionsPerMonth;
  }

  /** The key under which reserve() answers an account's grant for a period. */
  grantKey(accountId: string, period: string): string {
    return key(accountId, period);
  }

  /**
   * Reserves executions against each account's quota and answers how many each
   * may start (by grantKey). Rows are locked in a fixed order, so claimers on
   * several instances queue behind each other instead of deadlocking or overspending.
   */
  async reserve(tx: Queryable, requests: QuotaRequest[]): Promise<Map<string, number>> {
    const granted = new Map<string, number>();
    if (requests.length === 0) return granted;
    const sorted = [...requests].sort((a, b) => key(a.accountId, a.period).localeCompare(key(b.accountId, b.period)));
    const keys = { accountIds: sorted.map((r) => r.accountId), periods: sorted.map((r) => r.period) };
    await this.periods.ensure(tx, keys);
    const rows = await this.periods.lockForUpdate(tx, keys);
    const used = new Map(rows.map((r) => [key(r.account_id, r.period), Number(r.executions)]));
    const add = sorted.map((r) => {
      const allowed = Math.max(0, Math.min(r.wanted, this.executionLimit(r.plan) - (used.get(key(r.accountId, r.period)) ?? 0)));
      granted.set(key(r.accountId, r.period), allowed);
      return allowed;
    });
    await this.periods.add(tx, keys, add);
    return granted;
  }

  /** Gives executions back (never below zero), in the same lock order as reserve(). */
  async refund(tx: Queryable, refunds: QuotaRefund[]): Promise<void> {
    if (refunds.length === 0) return;
    const sorted = [...refunds].sort((a, b) => key(a.accountId, a.period).localeCompare(key(b.accountId, b.period)));
    await this.periods.add(tx, { accountIds: sorted.map((r) => r.accountId), periods: sorted.map((r) => r.period) }, sorted.map((r) => -r.count));
  }

  /** Executions the account has started in the period containing `now`. */
  async executionsUsed(accountId: string, now = new Date()): Promise<number> {
    const [row] = await this.periods.usedIn([accountId], usagePeriodOf(now));
    return row ? Number(row.executions) : 0;
  }

  /** Accounts (of those given) that still have executions left in the period containing `now` under their plan. */
  async usersWithExecutionsLeft(plans: ReadonlyMap<string, string>, now = new Date()): Promise<Set<string>> {
    const accountIds = [...plans.keys()];
    if (accountIds.length === 0) return new Set();
    const used = new Map((await this.periods.usedIn(accountIds, usagePeriodOf(now))).map((r) => [r.account_id, Number(r.executions)]));
    return new Set(accountIds.filter((id) => (used.get(id) ?? 0) < this.executionLimit(plans.get(id)!)));
  }

  /**
   * Starts the account's execution count afresh for the current period
   * (billing: a new paid cycle), in the transaction `tx` that also resumes
   * the jobs the quota held and writes the entry; answers the count it replaced.
   */
  resetExecutions(tx: Queryable, accountId: string, now = new Date()): Promise<number> {
    return this.periods.reset(tx, accountId, usagePeriodOf(now));
  }
}
