import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each failure episode of a job or monitor gets an id when it opens, kept
 * until the next one opens: its failure and recovery alerts carry it, so a
 * PagerDuty channel resolves the incident its failure triggered (one dedup
 * key per episode) and an Alertmanager receiver sees one alert fire and resolve.
 * Episodes open at the upgrade get one now.
 */
export class AlertEpisodes1763811100000 implements MigrationInterface {
  name = 'AlertEpisodes1763811100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE job_alert_states ADD COLUMN episode_id uuid`);
    await q.query(`UPDATE job_alert_states SET episode_id = gen_random_uuid() WHERE failing`);
    await q.query(`ALTER TABLE monitors ADD COLUMN episode_id uuid, ADD COLUMN episode_started_at timestamptz`);
    await q.query(`UPDATE monitors SET episode_id = gen_random_uuid(), episode_started_at = now() WHERE status = 'down'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE monitors DROP COLUMN episode_id, DROP COLUMN episode_started_at`);
    await q.query(`ALTER TABLE job_alert_states DROP COLUMN episode_id`);
  }
}
