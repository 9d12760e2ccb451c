import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `jobs.retry_policy`: how a job's failed scheduled runs are retried (count,
 * waits, which failures). Null is the plan default, what every job had
 * before: 3 retries of timeouts, network errors and 5xx answers.
 */
export class JobRetryPolicy1763900100000 implements MigrationInterface {
  name = 'JobRetryPolicy1763900100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN retry_policy jsonb NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN retry_policy`);
  }
}
