import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * An alert channel receives alerts only once `verified_at` is set. URL
 * channels are set at creation; an email channel when its recipient opens the
 * link mailed to it (only the link's SHA-256 is kept, with its expiry and when
 * it was sent, for the resend cool-down). Existing email channels that point
 * at their owner's own (verified) account address stay live; the others wait
 * for their owner to resend the link. `alert_send_counts` counts test alerts
 * and verification mails per user and per channel in fixed windows.
 */
export class AlertChannelVerification1763810300000 implements MigrationInterface {
  name = 'AlertChannelVerification1763810300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE alert_channels
        ADD COLUMN verified_at timestamptz NULL,
        ADD COLUMN verification_token_hash text NULL,
        ADD COLUMN verification_expires_at timestamptz NULL,
        ADD COLUMN verification_sent_at timestamptz NULL`);
    await q.query(`UPDATE alert_channels SET verified_at = created_at WHERE kind <> 'email'`);
    await q.query(
      `UPDATE alert_channels c SET verified_at = now() FROM users u WHERE c.kind = 'email' AND u.id = c.user_id AND u.email_verified AND lower(u.email) = lower(c.target)`,
    );
    await q.query(`CREATE UNIQUE INDEX alert_channels_verification_token_idx ON alert_channels (verification_token_hash) WHERE verification_token_hash IS NOT NULL`);
    await q.query(`
      CREATE TABLE alert_send_counts (
        key text PRIMARY KEY,
        sent integer NOT NULL,
        window_started_at timestamptz NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE alert_send_counts`);
    await q.query(`DROP INDEX alert_channels_verification_token_idx`);
    await q.query(`
      ALTER TABLE alert_channels
        DROP COLUMN verification_sent_at,
        DROP COLUMN verification_expires_at,
        DROP COLUMN verification_token_hash,
        DROP COLUMN verified_at`);
  }
}
