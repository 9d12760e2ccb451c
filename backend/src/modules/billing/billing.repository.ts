import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { BillingInterval, PaidPlanId } from '@cronbeam/shared/plans';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';

/** Stripe statuses under which the customer keeps the plan they pay for. */
export const ENTITLING_STATUSES = ['active', 'trialing', 'past_due'] as const;

/** A subscription as last read from the payment provider. Instants are epoch seconds. */
export interface SubscriptionRow {
  subscriptionId: string;
  accountId: string;
  stripeStatus: string;
  /** The plan of the subscription's price (what the next invoice bills); null for a price that is not ours. */
  plan: PaidPlanId | null;
  interval: BillingInterval | null;
  /** After a downgrade, the plan the customer already paid for, kept until `keptPlanUntil`. */
  keptPlan: PaidPlanId | null;
  keptPlanUntil: number | null;
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: number | null;
  currentPeriodEnd: number | null;
  created: number;
}

interface SubscriptionRecord {
  stripe_subscription_id: string;
  account_id: string;
  stripe_status: string;
  plan: PaidPlanId | null;
  billing_interval: BillingInterval | null;
  kept_plan: PaidPlanId | null;
  kept_plan_until: string | null;
  cancel_at_period_end: boolean;
  current_period_start: string | null;
  current_period_end: string | null;
  created: string;
}

const num = (v: string | null): number | null => (v === null ? null : Number(v));

function toRow(r: SubscriptionRecord): SubscriptionRow {
  return {
    subscriptionId: r.stripe_subscription_id,
    accountId: r.account_id,
    stripeStatus: r.stripe_status,
    plan: r.plan,
    interval: r.billing_interval,
    keptPlan: r.kept_plan,
    keptPlanUntil: num(r.kept_plan_until),
    cancelAtPeriodEnd: r.cancel_at_period_end,
    currentPeriodStart: num(r.current_period_start),
    currentPeriodEnd: num(r.current_period_end),
    created: Number(r.created),
  };
}

/** Every statement on billing_customers, billing_subscriptions and billing_webhook_events. */
@Injectable()
export class BillingRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async customerIdOf(accountId: string): Promise<string | null> {
    const rows: Array<{ stripe_customer_id: string }> = await this.db.query('SELECT stripe_customer_id FROM billing_customers WHERE account_id = $1', [accountId]);
    return rows[0]?.stripe_customer_id ?? null;
  }

  async userIdOfCustomer(customerId: string): Promise<string | null> {
    const rows: Array<{ account_id: string }> = await this.db.query('SELECT account_id FROM billing_customers WHERE stripe_customer_id = $1', [customerId]);
    return rows[0]?.account_id ?? null;
  }

  /** Links a customer to a user unless one is linked already; answers the linked one (the first writer wins a race). */
  async linkCustomer(accountId: string, customerId: string): Promise<string> {
    await this.db.query('INSERT INTO billing_customers (account_id, stripe_customer_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [accountId, customerId]);
    return (await this.customerIdOf(accountId)) ?? customerId;
  }

  /**
   * Stores the subscription, inside the transaction `tx` that holds its
   * account's row (AccountsRepository.planForUpdate), so the account cannot
   * be deleted under it.
   */
  async saveSubscription(s: SubscriptionRow, tx: Queryable): Promise<void> {
    await tx.query(
      `INSERT INTO billing_subscriptions (stripe_subscription_id, account_id, stripe_status, plan, billing_interval, kept_plan, kept_plan_until,
         cancel_at_period_end, current_period_start, current_period_end, created, synced_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, now())
       ON CONFLICT (stripe_subscription_id) DO UPDATE SET stripe_status = EXCLUDED.stripe_status, plan = EXCLUDED.plan,
         billing_interval = EXCLUDED.billing_interval, kept_plan = EXCLUDED.kept_plan, kept_plan_until = EXCLUDED.kept_plan_until,
         cancel_at_period_end = EXCLUDED.cancel_at_period_end, current_period_start = EXCLUDED.current_period_start,
         current_period_end = EXCLUDED.current_period_end, synced_at = now()
       WHERE billing_subscriptions.account_id = EXCLUDED.account_id`,
      [s.subscriptionId, s.accountId, s.stripeStatus, s.plan, s.interval, s.keptPlan, s.keptPlanUntil, s.cancelAtPeriodEnd, s.currentPeriodStart, s.currentPeriodEnd, s.created],
    );
  }

  /** The account's subscription by id as stored, inside `tx` (the state before a change, for its audit entry); null when it is not stored yet. */
  async subscriptionWithin(accountId: string, subscriptionId: string, tx: Queryable): Promise<SubscriptionRow | null> {
    const rows: SubscriptionRecord[] = await tx.query('SELECT * FROM billing_subscriptions WHERE account_id = $1 AND stripe_subscription_id = $2', [accountId, subscriptionId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /** The account's subscription by id; null when it is someone else's or unknown. */
  async subscriptionOfAccount(accountId: string, subscriptionId: string): Promise<SubscriptionRow | null> {
    const rows: SubscriptionRecord[] = await this.db.query('SELECT * FROM billing_subscriptions WHERE account_id = $1 AND stripe_subscription_id = $2', [accountId, subscriptionId]);
    return rows[0] ? toRow(rows[0]) : null;
  }

  /**
   * The subscription that decides the account's plan: the newest one that still
   * entitles, else the newest of all (to report how it ended); null for none.
   */
  async currentSubscription(accountId: string, tx: Queryable = this.db): Promise<SubscriptionRow | null> {
    const rows: SubscriptionRecord[] = await tx.query(
      `SELECT * FROM billing_subscriptions WHERE account_id = $1
       ORDER BY (stripe_status = ANY($2::text[])) DESC, created DESC, stripe_subscription_id DESC LIMIT 1`,
      [accountId, ENTITLING_STATUSES],
    );
    return rows[0] ? toRow(rows[0]) : null;
  }

  /**
   * Records that the usage period starting at `periodStart` has begun for this
   * subscription; true only for the first caller, so a period starts once
   * however often (and in whatever order) its events arrive.
   */
  async markUsagePeriodStarted(subscriptionId: string, periodStart: number, tx: Queryable): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `UPDATE billing_subscriptions SET usage_period_start = $2
       WHERE stripe_subscription_id = $1 AND (usage_period_start IS NULL OR usage_period_start < $2)
       RETURNING stripe_subscription_id`,
      [subscriptionId, periodStart],
    );
    return returnedRows(rows).length > 0;
  }

  /** Claims a webhook event; false when it was claimed before (a replay). */
  async claimEvent(eventId: string, type: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      'INSERT INTO billing_webhook_events (event_id, type) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING event_id',
      [eventId, type],
    );
    return returnedRows(rows).length > 0;
  }

  /** Gives a claim back when applying the event failed, so the provider's retry applies it. */
  async releaseEvent(eventId: string): Promise<void> {
    await this.db.query('DELETE FROM billing_webhook_events WHERE event_id = $1', [eventId]);
  }
}
