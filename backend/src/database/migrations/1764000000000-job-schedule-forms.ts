import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Schedule forms beside cron (docs/adr/0172-schedule-forms.md): an interval
 * counted from an anchor, a one-off instant, a start and an end, a jitter
 * window and the job's offset within it, and the overlap and catch-up
 * policies. cron_expression becomes nullable (a job has exactly one form; the
 * API checks it, and the CHECK keeps rows written elsewhere honest).
 * Existing jobs keep their cron schedules and today's policies (allow, latest).
 */
export class JobScheduleForms1764000000000 implements MigrationInterface {
  name = 'JobScheduleForms1764000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs
      ALTER COLUMN cron_expression DROP NOT NULL,
      ADD COLUMN every_seconds integer,
      ADD COLUMN schedule_anchor timestamptz,
      ADD COLUMN run_at timestamptz,
      ADD COLUMN starts_at timestamptz,
      ADD COLUMN ends_at timestamptz,
      ADD COLUMN jitter_seconds integer NOT NULL DEFAULT 0,
      ADD COLUMN jitter_offset_ms integer NOT NULL DEFAULT 0,
      ADD COLUMN overlap text NOT NULL DEFAULT 'allow',
      ADD COLUMN catch_up text NOT NULL DEFAULT 'latest',
      ADD COLUMN catch_up_window_seconds integer,
      ADD CONSTRAINT jobs_one_schedule_form CHECK (num_nonnulls(cron_expression, every_seconds, run_at) = 1)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM jobs WHERE cron_expression IS NULL`);
    await q.query(`ALTER TABLE jobs
      DROP CONSTRAINT jobs_one_schedule_form,
      DROP COLUMN every_seconds, DROP COLUMN schedule_anchor, DROP COLUMN run_at, DROP COLUMN starts_at, DROP COLUMN ends_at,
      DROP COLUMN jitter_seconds, DROP COLUMN jitter_offset_ms, DROP COLUMN overlap, DROP COLUMN catch_up, DROP COLUMN catch_up_window_seconds,
      ALTER COLUMN cron_expression SET NOT NULL`);
  }
}
