import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The local identity provider's state: token signing keys, refresh-token
 * families, e-mailed codes, sign-in throttling counters and links to social
 * identities. Every secret is stored hashed, except the signing keys' private
 * halves, which the server needs to sign with. users.sessions_revoked_at lets
 * global sign-out and password resets end access tokens of either provider.
 */
export class Identity1763800200000 implements MigrationInterface {
  name = 'Identity1763800200000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE users ADD COLUMN sessions_revoked_at timestamptz`);

    await q.query(`
      CREATE TABLE signing_keys (
        kid text PRIMARY KEY,
        private_key_pem text NOT NULL,
        public_jwk jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        retired_at timestamptz
      )`);

    await q.query(`
      CREATE TABLE refresh_tokens (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        family_id uuid NOT NULL,
        token_hash text NOT NULL UNIQUE,
        expires_at timestamptz NOT NULL,
        used_at timestamptz,
        revoked_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id)`);
    await q.query(`CREATE INDEX refresh_tokens_user_idx ON refresh_tokens (user_id)`);

    await q.query(`
      CREATE TABLE verification_codes (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        purpose text NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
        code_hash text NOT NULL,
        expires_at timestamptz NOT NULL,
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (user_id, purpose)
      )`);

    await q.query(`
      CREATE TABLE auth_attempts (
        key text PRIMARY KEY,
        failures integer NOT NULL,
        window_started_at timestamptz NOT NULL
      )`);

    await q.query(`
      CREATE TABLE federated_identities (
        provider text NOT NULL,
        subject text NOT NULL,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (provider, subject)
      )`);
    await q.query(`CREATE INDEX federated_identities_user_idx ON federated_identities (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE federated_identities`);
    await q.query(`DROP TABLE auth_attempts`);
    await q.query(`DROP TABLE verification_codes`);
    await q.query(`DROP TABLE refresh_tokens`);
    await q.query(`DROP TABLE signing_keys`);
    await q.query(`ALTER TABLE users DROP COLUMN sessions_revoked_at`);
  }
}
