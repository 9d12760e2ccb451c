import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * What a crash leaves uncertain is recorded per run, not per instant:
 * - `scheduler_dispatches`: before an instance starts a small batch of
 *   requests it appends their run ids here (refused once it was taken over).
 *   After a crash, a run leased to the dead instance and not in its log was
 *   certainly never sent; one in the log may have reached its target.
 *   Rows go with their instance, and each instance prunes its own old ones.
 * - `jobs.delivery`: what to do with a run that may have reached its target
 *   when its instance died: send it again (`at_least_once`, the default) or
 *   record its outcome as unknown (`at_most_once`).
 * - `job_runs.possible_duplicate`: the run was sent again after such a crash.
 * The instant-wide mark (`released_through`) that held a whole instant's runs
 * for the full lease is gone.
 */
export class RunDispatchLog1763810600000 implements MigrationInterface {
  name = 'RunDispatchLog1763810600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE scheduler_dispatches (
        instance_id text NOT NULL REFERENCES scheduler_instances (id) ON DELETE CASCADE,
        run_ids uuid[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX scheduler_dispatches_instance_idx ON scheduler_dispatches (instance_id, created_at)`);
    await q.query(`ALTER TABLE scheduler_instances DROP COLUMN released_through`);
    await q.query(`ALTER TABLE jobs ADD COLUMN delivery text NOT NULL DEFAULT 'at_least_once' CHECK (delivery IN ('at_least_once', 'at_most_once'))`);
    await q.query(`ALTER TABLE job_runs ADD COLUMN possible_duplicate boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE job_runs DROP COLUMN possible_duplicate`);
    await q.query(`ALTER TABLE jobs DROP COLUMN delivery`);
    await q.query(`ALTER TABLE scheduler_instances ADD COLUMN released_through timestamptz NULL`);
    await q.query(`DROP TABLE scheduler_dispatches`);
  }
}
