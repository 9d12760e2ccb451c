import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log: one row per change an account's members or keys make (or
 * Stripe, for the plan), written by the statement or transaction of the change
 * itself. `audit_changes` turns two views of a resource (jsonb objects of its
 * audited fields, null for "did not exist") into `{field: {before, after}}`
 * of the fields that differ, with the masked fields' values replaced by
 * "***", so the statement of a change can compute its own entry without a
 * round trip for the row as it was.
 */
export class AuditEvents1764100300000 implements MigrationInterface {
  name = 'AuditEvents1764100300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE audit_events (
        id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        actor_user_id uuid NULL,
        actor_key_id uuid NULL,
        actor_ip text NULL,
        request_id text NULL,
        action text NOT NULL,
        target_type text NOT NULL,
        target_id text NULL,
        changes jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX audit_events_account_time ON audit_events (account_id, created_at DESC, id DESC)`);
    await q.query(`CREATE INDEX audit_events_account_target ON audit_events (account_id, target_type, target_id)`);
    await q.query(`CREATE INDEX audit_events_request ON audit_events (request_id)`);
    await q.query(`
      CREATE FUNCTION audit_changes(before jsonb, after jsonb, masked text[]) RETURNS jsonb
      LANGUAGE sql IMMUTABLE AS $$
        SELECT coalesce(jsonb_object_agg(k.key, jsonb_build_object(
                 'before', CASE WHEN k.key = ANY(masked) AND coalesce(before -> k.key, 'null') <> 'null' THEN '"***"'::jsonb ELSE coalesce(before -> k.key, 'null') END,
                 'after', CASE WHEN k.key = ANY(masked) AND coalesce(after -> k.key, 'null') <> 'null' THEN '"***"'::jsonb ELSE coalesce(after -> k.key, 'null') END)), '{}')
          FROM (SELECT DISTINCT jsonb_object_keys(coalesce(before, '{}') || coalesce(after, '{}')) AS key) k
         WHERE coalesce(before -> k.key, 'null') IS DISTINCT FROM coalesce(after -> k.key, 'null')
      $$`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP FUNCTION audit_changes(jsonb, jsonb, text[])`);
    await q.query(`DROP TABLE audit_events`);
  }
}
