import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Second factor and account security of the local identity provider: the
 * authenticator secret (needed in clear to compute codes; nothing else is),
 * recovery codes and remembered-device keys stored as hashes only, pending
 * sign-in challenges (their session token hashed), and the operator's
 * "choose a new password at next sign-in" flag.
 */
export class AccountSecurity1763808220000 implements MigrationInterface {
  name = 'AccountSecurity1763808220000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE account_security (
        user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
        totp_secret text,
        totp_enabled_at timestamptz,
        pending_totp_secret text,
        totp_last_time_step bigint,
        new_password_required boolean NOT NULL DEFAULT false,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);

    await q.query(`
      CREATE TABLE recovery_codes (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        code_hash text NOT NULL,
        used_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, code_hash)
      )`);

    await q.query(`
      CREATE TABLE sign_in_challenges (
        session_hash text PRIMARY KEY,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        challenge text NOT NULL CHECK (challenge IN ('SOFTWARE_TOKEN_MFA', 'NEW_PASSWORD_REQUIRED')),
        expires_at timestamptz NOT NULL,
        answered_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX sign_in_challenges_expires_idx ON sign_in_challenges (expires_at)`);

    await q.query(`
      CREATE TABLE remembered_devices (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        key_hash text NOT NULL UNIQUE,
        name text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        expires_at timestamptz NOT NULL
      )`);
    await q.query(`CREATE INDEX remembered_devices_user_idx ON remembered_devices (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE remembered_devices`);
    await q.query(`DROP TABLE sign_in_challenges`);
    await q.query(`DROP TABLE recovery_codes`);
    await q.query(`DROP TABLE account_security`);
  }
}
