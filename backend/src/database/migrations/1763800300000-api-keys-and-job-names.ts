import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys for the /prog public API (only a SHA-256 of each secret is kept),
 * and one job name per user, compared case-insensitively: integrations (the
 * n8n node, scripts) address jobs by name, so two "backup" jobs would be
 * ambiguous.
 */
export class ApiKeysAndJobNames1763800300000 implements MigrationInterface {
  name = 'ApiKeysAndJobNames1763800300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE api_keys (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        name text NOT NULL,
        prefix text NOT NULL,
        secret_hash text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    await q.query(`CREATE UNIQUE INDEX api_keys_secret_hash_key ON api_keys (secret_hash)`);
    await q.query(`CREATE INDEX api_keys_user_idx ON api_keys (user_id, created_at)`);
    await q.query(`CREATE UNIQUE INDEX jobs_user_name_key ON jobs (user_id, lower(name))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX jobs_user_name_key`);
    await q.query(`DROP TABLE api_keys`);
  }
}
