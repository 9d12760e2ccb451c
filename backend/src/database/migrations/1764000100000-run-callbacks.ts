import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Run callbacks: `jobs.callback_url`, and the durable delivery queue and log
 * of the alert channels carrying them too. A callback's queue row names its
 * job instead of a channel (exactly one of the two) and takes the run's id as
 * its own, so a run is queued once whatever happens; its attempts are logged
 * in `alert_deliveries` with the run's id and no channel.
 */
export class RunCallbacks1764000100000 implements MigrationInterface {
  name = 'RunCallbacks1764000100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN callback_url text NULL`);
    await q.query(`ALTER TABLE alert_queue ALTER COLUMN channel_id DROP NOT NULL, ADD COLUMN job_id uuid NULL REFERENCES jobs(id) ON DELETE CASCADE`);
    await q.query(`ALTER TABLE alert_queue ADD CONSTRAINT alert_queue_one_target CHECK ((channel_id IS NULL) <> (job_id IS NULL))`);
    await q.query(`ALTER TABLE alert_deliveries ALTER COLUMN channel_id DROP NOT NULL, ADD COLUMN run_id uuid NULL`);
    await q.query(`CREATE INDEX alert_deliveries_callback_idx ON alert_deliveries (job_id, created_at DESC) WHERE channel_id IS NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX alert_deliveries_callback_idx`);
    await q.query(`DELETE FROM alert_deliveries WHERE channel_id IS NULL`);
    await q.query(`ALTER TABLE alert_deliveries DROP COLUMN run_id, ALTER COLUMN channel_id SET NOT NULL`);
    await q.query(`DELETE FROM alert_queue WHERE channel_id IS NULL`);
    await q.query(`ALTER TABLE alert_queue DROP CONSTRAINT alert_queue_one_target, DROP COLUMN job_id, ALTER COLUMN channel_id SET NOT NULL`);
    await q.query(`ALTER TABLE jobs DROP COLUMN callback_url`);
  }
}
