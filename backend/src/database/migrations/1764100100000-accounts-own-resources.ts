import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Every table holding a resource (not identity), and the indexes named after its owner column. */
const RESOURCE_TABLES: Array<{ table: string; indexes: Array<[user: string, account: string]> }> = [
  { table: 'jobs', indexes: [['jobs_user_idx', 'jobs_account_idx'], ['jobs_user_name_key', 'jobs_account_name_key']] },
  { table: 'job_runs', indexes: [] },
  { table: 'job_counts', indexes: [] },
  { table: 'usage_periods', indexes: [] },
  { table: 'monitors', indexes: [['monitors_user_idx', 'monitors_account_idx']] },
  { table: 'alert_channels', indexes: [['alert_channels_user_idx', 'alert_channels_account_idx']] },
  { table: 'api_keys', indexes: [['api_keys_user_idx', 'api_keys_account_idx']] },
  { table: 'billing_customers', indexes: [] },
  { table: 'billing_subscriptions', indexes: [['billing_subscriptions_user_idx', 'billing_subscriptions_account_idx']] },
  { table: 'n8n_deployments', indexes: [['n8n_deployments_user_created', 'n8n_deployments_account_created']] },
  { table: 'maintenance_windows', indexes: [['maintenance_windows_user_idx', 'maintenance_windows_account_idx']] },
  { table: 'status_pages', indexes: [['status_pages_user_idx', 'status_pages_account_idx']] },
  { table: 'status_badges', indexes: [['status_badges_user_idx', 'status_badges_account_idx']] },
  { table: 'status_incident_notes', indexes: [] },
];

const PLAN_CHECK = `CHECK (plan IN ('free', 'basic', 'pro', 'unlimited'))`;

/** The job counters' trigger functions (1763809800000), written for the given owner column. */
function jobCountFunctions(owner: 'user_id' | 'account_id'): string[] {
  return [
    `CREATE OR REPLACE FUNCTION job_counts_apply() RETURNS trigger LANGUAGE plpgsql AS $fn$
      DECLARE
        change record;
      BEGIN
        IF TG_OP = 'INSERT' THEN
          -- The hot path (every creation): one statement, rows inserted and locked in ${owner} order.
          INSERT INTO job_counts AS c (${owner}, jobs)
          SELECT ${owner}, count(*) FROM new_rows GROUP BY ${owner} ORDER BY ${owner}
          ON CONFLICT (${owner}) DO UPDATE SET jobs = c.jobs + EXCLUDED.jobs;
          RETURN NULL;
        END IF;
        -- DELETE. An UPDATE ... FROM locks rows in whatever order its join yields, so
        -- the owners are done one at a time, in ${owner} order.
        FOR change IN SELECT ${owner}, count(*)::int AS removed FROM old_rows GROUP BY ${owner} ORDER BY ${owner} LOOP
          -- Never an insert: when the owner is being deleted, its row may be gone already (ON DELETE CASCADE).
          UPDATE job_counts SET jobs = jobs - change.removed WHERE ${owner} = change.${owner};
        END LOOP;
        RETURN NULL;
      END
      $fn$`,
    `CREATE OR REPLACE FUNCTION job_counts_move() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        UPDATE job_counts SET jobs = jobs - 1 WHERE ${owner} = OLD.${owner};
        INSERT INTO job_counts AS c (${owner}, jobs) VALUES (NEW.${owner}, 1)
        ON CONFLICT (${owner}) DO UPDATE SET jobs = c.jobs + 1;
        RETURN NULL;
      END
      $fn$`,
  ];
}

/**
 * Accounts own what users owned: every resource table's `user_id` becomes
 * `account_id` referencing accounts. Each user's personal account has the
 * user's id (1764100000000), so the column is renamed in place: no row and
 * no id changes, and every id a client holds names the same thing. The plan
 * moves from the user to the account; API keys remember the member who made
 * them (old keys: their user).
 */
export class AccountsOwnResources1764100100000 implements MigrationInterface {
  name = 'AccountsOwnResources1764100100000';

  async up(q: QueryRunner): Promise<void> {
    for (const { table, indexes } of RESOURCE_TABLES) {
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_user_id_fkey`);
      // On the partitioned run history this renames the column of every partition too.
      await q.query(`ALTER TABLE ${table} RENAME COLUMN user_id TO account_id`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_account_id_fkey FOREIGN KEY (account_id) REFERENCES accounts(id) ON DELETE CASCADE`);
      for (const [from, to] of indexes) await q.query(`ALTER INDEX ${from} RENAME TO ${to}`);
    }
    // The triggers follow the renamed column by itself; the functions' bodies are text and are rewritten.
    for (const sql of jobCountFunctions('account_id')) await q.query(sql);

    await q.query(`ALTER TABLE api_keys ADD COLUMN created_by uuid NULL REFERENCES users(id) ON DELETE SET NULL`);
    await q.query(`UPDATE api_keys SET created_by = account_id`);

    await q.query(`ALTER TABLE accounts ADD COLUMN plan text NOT NULL DEFAULT 'free' CONSTRAINT accounts_plan_check ${PLAN_CHECK}`);
    await q.query(`UPDATE accounts a SET plan = u.plan FROM users u WHERE u.id = a.id`);
    await q.query(`ALTER TABLE users DROP COLUMN plan`);
  }

  /**
   * Back to user ownership. Only personal accounts map to a user (same id);
   * a team account's resources have no user to go back to and are deleted
   * with the account.
   */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN plan text NOT NULL DEFAULT 'free' CONSTRAINT users_plan_check ${PLAN_CHECK}`);
    await q.query(`UPDATE users u SET plan = a.plan FROM accounts a WHERE a.id = u.id`);
    await q.query(`ALTER TABLE accounts DROP COLUMN plan`);
    await q.query(`ALTER TABLE api_keys DROP COLUMN created_by`);
    await q.query(`DELETE FROM accounts a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a.id)`);

    for (const { table, indexes } of [...RESOURCE_TABLES].reverse()) {
      for (const [from, to] of indexes) await q.query(`ALTER INDEX ${to} RENAME TO ${from}`);
      await q.query(`ALTER TABLE ${table} DROP CONSTRAINT ${table}_account_id_fkey`);
      await q.query(`ALTER TABLE ${table} RENAME COLUMN account_id TO user_id`);
      await q.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_user_id_fkey FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE`);
    }
    for (const sql of jobCountFunctions('user_id')) await q.query(sql);
  }
}
