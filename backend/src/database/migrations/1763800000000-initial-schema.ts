import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Instance-wide settings (one row per key): signing keys, schema facts, operator switches. */
export class InitialSchema1763800000000 implements MigrationInterface {
  name = 'InitialSchema1763800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE instance_settings (
        key text PRIMARY KEY,
        value jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO instance_settings (key, value) VALUES ('instance_id', to_jsonb(gen_random_uuid()::text))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE instance_settings`);
  }
}
