import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When the session of each refresh token last proved a credential. Refreshing
 * copies it, so access tokens keep the sign-in's `auth_time` and sensitive
 * operations can ask for a recent one. Sessions that predate the column count
 * as authenticated long ago: their first sensitive operation asks to sign in again.
 */
export class RefreshTokenAuthenticatedAt1763810100000 implements MigrationInterface {
  name = 'RefreshTokenAuthenticatedAt1763810100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refresh_tokens ADD COLUMN authenticated_at timestamptz NOT NULL DEFAULT to_timestamp(0)`);
    await q.query(`ALTER TABLE refresh_tokens ALTER COLUMN authenticated_at DROP DEFAULT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE refresh_tokens DROP COLUMN authenticated_at`);
  }
}
