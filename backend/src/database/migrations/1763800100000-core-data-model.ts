import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The core data model every module stands on: users, their jobs, and the run
 * records the scheduler writes (which are also the execution logs).
 */
export class CoreDataModel1763800100000 implements MigrationInterface {
  name = 'CoreDataModel1763800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE users (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        email text NOT NULL,
        name text NOT NULL,
        password_hash text,
        email_verified boolean NOT NULL DEFAULT false,
        plan text NOT NULL DEFAULT 'free' CHECK (plan IN ('free', 'basic', 'pro', 'unlimited')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email))`);

    await q.query(`
      CREATE TABLE jobs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        url text NOT NULL,
        method text NOT NULL DEFAULT 'GET',
        headers jsonb NOT NULL DEFAULT '{}'::jsonb,
        body text NOT NULL DEFAULT '',
        cron_expression text NOT NULL,
        status text NOT NULL DEFAULT 'scheduled'
          CHECK (status IN ('pending', 'scheduled', 'success', 'failed', 'paused', 'quota_reached')),
        notify_on_failure boolean NOT NULL DEFAULT false,
        next_run_at timestamptz,
        last_run_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX jobs_user_idx ON jobs (user_id, created_at)`);
    // The scheduler's claim query walks this index only: jobs that can fire, by due time.
    await q.query(`
      CREATE INDEX jobs_due_idx ON jobs (next_run_at)
      WHERE next_run_at IS NOT NULL AND status NOT IN ('paused', 'quota_reached')`);

    await q.query(`
      CREATE TABLE job_runs (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        job_id uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        trigger text NOT NULL CHECK (trigger IN ('schedule', 'retry', 'manual', 'recovery')),
        scheduled_for timestamptz NOT NULL,
        attempt integer NOT NULL DEFAULT 1,
        due_at timestamptz NOT NULL,
        state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done')),
        status text CHECK (status IN ('success', 'failed', 'skipped', 'missed')),
        lease_owner text,
        lease_expires_at timestamptz,
        executed_at timestamptz,
        finished_at timestamptz,
        response_code integer,
        duration_ms integer,
        error_message text,
        response_body text,
        skip_reason text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // A due time fires once: a second claim of the same (job, instant, attempt) cannot insert.
    await q.query(`
      CREATE UNIQUE INDEX job_runs_once_key ON job_runs (job_id, scheduled_for, attempt)
      WHERE trigger <> 'manual'`);
    await q.query(`CREATE INDEX job_runs_job_idx ON job_runs (job_id, created_at DESC)`);
    await q.query(`CREATE INDEX job_runs_queue_idx ON job_runs (due_at) WHERE state = 'queued'`);
    await q.query(`CREATE INDEX job_runs_lease_idx ON job_runs (lease_expires_at) WHERE state = 'running'`);

    await q.query(`
      CREATE TABLE usage_periods (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        period_start date NOT NULL,
        executions integer NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, period_start)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE usage_periods`);
    await q.query(`DROP TABLE job_runs`);
    await q.query(`DROP TABLE jobs`);
    await q.query(`DROP TABLE users`);
  }
}
