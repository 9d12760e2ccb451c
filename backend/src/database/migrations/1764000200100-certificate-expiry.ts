import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Certificate expiry of https jobs: the peer certificate's expiry seen on the
 * latest run (`certificate_expires_at`), how many days before it the owner
 * is told (`certificate_alert_days`, null: never), and the latest alert sent
 * for that certificate (`certificate_alert_stage`: 'expiring' or 'expired'),
 * so each certificate alerts once per stage.
 */
export class CertificateExpiry1764000200100 implements MigrationInterface {
  name = 'CertificateExpiry1764000200100';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN certificate_alert_days integer NULL DEFAULT 14 CHECK (certificate_alert_days BETWEEN 1 AND 365)`);
    await q.query(`ALTER TABLE jobs ADD COLUMN certificate_expires_at timestamptz NULL`);
    await q.query(`ALTER TABLE jobs ADD COLUMN certificate_alert_stage text NULL CHECK (certificate_alert_stage IN ('expiring', 'expired'))`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN certificate_alert_stage`);
    await q.query(`ALTER TABLE jobs DROP COLUMN certificate_expires_at`);
    await q.query(`ALTER TABLE jobs DROP COLUMN certificate_alert_days`);
  }
}
