import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Self-hosted n8n deployments on the user's Fly.io account and their
 * provisioning steps. Neither the Fly token nor the n8n password has a
 * column: they live in memory only while provisioning runs.
 */
export class N8nDeployments1763806000000 implements MigrationInterface {
  name = 'N8nDeployments1763806000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE n8n_deployments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        app_name text NOT NULL,
        region text NOT NULL,
        ram_mb integer NOT NULL,
        estimated_monthly_cost numeric(10, 2) NOT NULL,
        status text NOT NULL DEFAULT 'provisioning' CHECK (status IN ('provisioning', 'live', 'failed', 'deleted')),
        url text NOT NULL,
        failed_step text,
        error text,
        fly_volume_id text,
        fly_machine_id text,
        created_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        finished_at timestamptz,
        deleted_at timestamptz
      )`);
    await q.query(`CREATE INDEX n8n_deployments_user_created ON n8n_deployments (user_id, created_at DESC)`);
    await q.query(`CREATE INDEX n8n_deployments_provisioning ON n8n_deployments (heartbeat_at) WHERE status = 'provisioning'`);
    await q.query(`
      CREATE TABLE n8n_deployment_steps (
        deployment_id uuid NOT NULL REFERENCES n8n_deployments(id) ON DELETE CASCADE,
        position smallint NOT NULL,
        name text NOT NULL,
        state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'running', 'done', 'failed', 'undone')),
        started_at timestamptz,
        finished_at timestamptz,
        error text,
        PRIMARY KEY (deployment_id, name)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE n8n_deployment_steps`);
    await q.query(`DROP TABLE n8n_deployments`);
  }
}
