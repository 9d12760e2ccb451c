import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Liveness of scheduler instances: each one refreshes its row about every
 * second (database clock) and records the latest due instant it has released.
 * Runs leased to an instance whose row went stale, and due after that
 * instant, were provably never sent and are taken over at once.
 */
export class SchedulerInstances1763809750000 implements MigrationInterface {
  name = 'SchedulerInstances1763809750000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scheduler_instances (
        id text PRIMARY KEY,
        started_at timestamptz NOT NULL DEFAULT now(),
        heartbeat_at timestamptz NOT NULL DEFAULT now(),
        released_through timestamptz NULL,
        taken_over_at timestamptz NULL
      )`);
    await q.query(`CREATE INDEX job_runs_lease_owner_idx ON job_runs (lease_owner, due_at) WHERE state = 'running'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX job_runs_lease_owner_idx`);
    await q.query(`DROP TABLE scheduler_instances`);
  }
}
