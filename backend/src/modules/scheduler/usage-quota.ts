import type { EntityManager } from 'typeorm';
import { isPlanId, PLAN_LIMITS } from '@shared/plans';

/** First day of the UTC calendar month containing `instant`: the usage period until billing periods exist. */
export function usagePeriodStart(instant: Date): string {
  return `${instant.getUTCFullYear()}-${String(instant.getUTCMonth() + 1).padStart(2, '0')}-01`;
}

export function monthlyExecutionLimit(plan: string): number {
  return PLAN_LIMITS[isPlanId(plan) ? plan : 'free'].executionsPerMonth;
}

export interface QuotaRequest {
  userId: string;
  plan: string;
  period: string;
  /** Executions the caller would like to start now. */
  wanted: number;
}

const key = (userId: string, period: string) => `${userId}|${period}`;

/**
 * Reserves executions against each user's monthly quota inside the caller's
 * transaction and answers how many each user may start. The usage rows are
 * locked in a fixed order (user, period) so concurrent claimers on several
 * instances queue behind each other instead of deadlocking or overspending.
 */
export async function reserveExecutions(em: EntityManager, requests: QuotaRequest[]): Promise<Map<string, number>> {
  const granted = new Map<string, number>();
  if (requests.length === 0) return granted;
  const sorted = [...requests].sort((a, b) => key(a.userId, a.period).localeCompare(key(b.userId, b.period)));
  const users = sorted.map((r) => r.userId);
  const periods = sorted.map((r) => r.period);
  await em.query(
    `INSERT INTO usage_periods (user_id, period_start)
     SELECT * FROM unnest($1::uuid[], $2::date[]) ORDER BY 1, 2
     ON CONFLICT DO NOTHING`,
    [users, periods],
  );
  const rows: Array<{ user_id: string; period: string; executions: number }> = await em.query(
    `SELECT u.user_id, to_char(u.period_start, 'YYYY-MM-DD') AS period, u.executions
     FROM usage_periods u JOIN unnest($1::uuid[], $2::date[]) AS w(user_id, period_start)
       ON u.user_id = w.user_id AND u.period_start = w.period_start
     ORDER BY u.user_id, u.period_start
     FOR UPDATE OF u`,
    [users, periods],
  );
  const used = new Map(rows.map((r) => [key(r.user_id, r.period), Number(r.executions)]));
  const add: number[] = [];
  for (const r of sorted) {
    const allowed = Math.max(0, Math.min(r.wanted, monthlyExecutionLimit(r.plan) - (used.get(key(r.userId, r.period)) ?? 0)));
    granted.set(key(r.userId, r.period), allowed);
    add.push(allowed);
  }
  await em.query(
    `UPDATE usage_periods u SET executions = u.executions + w.n
     FROM unnest($1::uuid[], $2::date[], $3::int[]) AS w(user_id, period_start, n)
     WHERE u.user_id = w.user_id AND u.period_start = w.period_start AND w.n > 0`,
    [users, periods, add],
  );
  return granted;
}

export function quotaKey(userId: string, period: string): string {
  return key(userId, period);
}
