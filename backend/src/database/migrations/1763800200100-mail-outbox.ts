import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Where mail goes when no SMTP server is configured (development and self-hosting without mail). */
export class MailOutbox1763800200100 implements MigrationInterface {
  name = 'MailOutbox1763800200100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE mail_outbox (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        recipient text NOT NULL,
        subject text NOT NULL,
        text_body text NOT NULL,
        html_body text,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX mail_outbox_created_idx ON mail_outbox (created_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE mail_outbox`);
  }
}
