import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Billing: one payment-provider customer per user, the user's subscriptions
 * as last read from the provider, and the ids of webhook events already
 * applied (a replayed event must change nothing).
 */
export class Billing1763807000000 implements MigrationInterface {
  name = 'Billing1763807000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE billing_customers (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        stripe_customer_id text NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE billing_subscriptions (
        stripe_subscription_id text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        stripe_status text NOT NULL,
        plan text,
        billing_interval text,
        kept_plan text,
        kept_plan_until bigint,
        cancel_at_period_end boolean NOT NULL DEFAULT false,
        current_period_start bigint,
        current_period_end bigint,
        created bigint NOT NULL,
        usage_period_start bigint,
        synced_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX billing_subscriptions_user_idx ON billing_subscriptions (user_id, created DESC)`);
    await q.query(`
      CREATE TABLE billing_webhook_events (
        event_id text PRIMARY KEY,
        type text NOT NULL,
        received_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE billing_webhook_events`);
    await q.query(`DROP TABLE billing_subscriptions`);
    await q.query(`DROP TABLE billing_customers`);
  }
}
