import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Signed requests to targets:
 * - `jobs.signing_secret`: the job's HMAC secret for X-Cronbeam-Signature,
 *   sealed like the headers; null for jobs made before (a rotation gives them
 *   one). `signing_secret_previous` still signs until
 *   `signing_secret_previous_until` (the overlap of a rotation).
 * - `jobs.identity_token`: null, or the audience of the JWT the job's
 *   requests carry in Authorization.
 * - `target_token_keys`: the ES256 keys those JWTs are signed with (private
 *   half sealed), published at /.well-known/target-jwks.json.
 */
export class JobRequestSigning1763900110000 implements MigrationInterface {
  name = 'JobRequestSigning1763900110000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN signing_secret text NULL, ADD COLUMN signing_secret_previous text NULL, ADD COLUMN signing_secret_previous_until timestamptz NULL, ADD COLUMN identity_token jsonb NULL`);
    await q.query(`
      CREATE TABLE target_token_keys (
        kid text PRIMARY KEY,
        private_key text NOT NULL,
        public_jwk jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE target_token_keys`);
    await q.query(`ALTER TABLE jobs DROP COLUMN identity_token, DROP COLUMN signing_secret_previous_until, DROP COLUMN signing_secret_previous, DROP COLUMN signing_secret`);
  }
}
