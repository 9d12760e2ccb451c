import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Accounts and their members. An account owns what a user owned before
 * (jobs, monitors, channels, keys, deployments, the plan); a user belongs to
 * any number of accounts with one role in each. Every existing user gets a
 * personal account with the user's own id, so every id a client holds keeps
 * naming the same thing, and the user is its owner. Invitations keep only a
 * hash of their link's token.
 */
export class Accounts1764100000000 implements MigrationInterface {
  name = 'Accounts1764100000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE accounts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL,
        personal boolean NOT NULL DEFAULT false,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`
      CREATE TABLE account_members (
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        role text NOT NULL CHECK (role IN ('owner', 'admin', 'editor', 'viewer')),
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (account_id, user_id)
      )`);
    await q.query(`CREATE INDEX account_members_user_idx ON account_members (user_id)`);
    // One owner per account: ownership moves by a transfer, never by adding a second owner.
    await q.query(`CREATE UNIQUE INDEX account_members_one_owner ON account_members (account_id) WHERE role = 'owner'`);
    await q.query(`
      CREATE TABLE account_invitations (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        email text NOT NULL,
        role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
        token_hash text NOT NULL UNIQUE,
        invited_by uuid NULL REFERENCES users(id) ON DELETE SET NULL,
        expires_at timestamptz NOT NULL,
        accepted_at timestamptz NULL,
        revoked_at timestamptz NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    // At most one open invitation per address and account.
    await q.query(`CREATE UNIQUE INDEX account_invitations_open ON account_invitations (account_id, lower(email)) WHERE accepted_at IS NULL AND revoked_at IS NULL`);
    await q.query(`INSERT INTO accounts (id, name, personal, created_at) SELECT id, name, true, created_at FROM users`);
    await q.query(`INSERT INTO account_members (account_id, user_id, role, created_at) SELECT id, id, 'owner', created_at FROM users`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE account_invitations`);
    await q.query(`DROP TABLE account_members`);
    await q.query(`DROP TABLE accounts`);
  }
}
