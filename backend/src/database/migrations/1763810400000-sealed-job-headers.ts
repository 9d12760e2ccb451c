import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secrets are encrypted at rest (backend/src/common/crypto). A job's headers
 * become one sealed text value instead of a JSON object, so the column turns
 * to text; an empty map stays '{}' (nothing to hide). The existing values
 * stay readable as clear JSON text until the start-up reseal sweep seals them
 * with the master key, which migrations do not have. The other sealed
 * columns (TOTP secrets, webhook secrets, signing keys) were text already.
 */
export class SealedJobHeaders1763810400000 implements MigrationInterface {
  name = 'SealedJobHeaders1763810400000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ALTER COLUMN headers DROP DEFAULT`);
    await q.query(`ALTER TABLE jobs ALTER COLUMN headers TYPE text USING headers::text`);
    await q.query(`ALTER TABLE jobs ALTER COLUMN headers SET DEFAULT '{}'`);
  }

  /** Only for a database whose sweep has not run: sealed values are not JSON. */
  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ALTER COLUMN headers DROP DEFAULT`);
    await q.query(`ALTER TABLE jobs ALTER COLUMN headers TYPE jsonb USING headers::jsonb`);
    await q.query(`ALTER TABLE jobs ALTER COLUMN headers SET DEFAULT '{}'::jsonb`);
  }
}
