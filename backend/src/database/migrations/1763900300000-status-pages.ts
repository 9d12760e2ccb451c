import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Public status pages (a slug, a title, an optional custom domain and the
 * jobs and monitors they show), the owner's notes on incidents (keyed by the
 * item and the incident's start, since incidents are computed from the run
 * history, not stored), and badges: unguessable tokens naming a job, a
 * monitor or a page. The uptime and incident queries read job_runs through
 * its index by job (job_runs_job_idx) and monitor_events through its own.
 */
export class StatusPages1763900300000 implements MigrationInterface {
  name = 'StatusPages1763900300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE status_pages (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        slug text NOT NULL,
        title text NOT NULL,
        custom_domain text NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE UNIQUE INDEX status_pages_slug_key ON status_pages (slug)`);
    await q.query(`CREATE UNIQUE INDEX status_pages_custom_domain_key ON status_pages (custom_domain) WHERE custom_domain IS NOT NULL`);
    await q.query(`CREATE INDEX status_pages_user_idx ON status_pages (user_id, created_at)`);
    await q.query(`
      CREATE TABLE status_page_items (
        page_id uuid NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
        position integer NOT NULL,
        job_id uuid NULL REFERENCES jobs(id) ON DELETE CASCADE,
        monitor_id uuid NULL REFERENCES monitors(id) ON DELETE CASCADE,
        label text NULL,
        PRIMARY KEY (page_id, position),
        CHECK ((job_id IS NULL) <> (monitor_id IS NULL))
      )`);
    await q.query(`CREATE INDEX status_page_items_job_idx ON status_page_items (job_id) WHERE job_id IS NOT NULL`);
    await q.query(`CREATE INDEX status_page_items_monitor_idx ON status_page_items (monitor_id) WHERE monitor_id IS NOT NULL`);
    await q.query(`
      CREATE TABLE status_incident_notes (
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        job_id uuid NULL REFERENCES jobs(id) ON DELETE CASCADE,
        monitor_id uuid NULL REFERENCES monitors(id) ON DELETE CASCADE,
        started_at timestamptz NOT NULL,
        note text NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((job_id IS NULL) <> (monitor_id IS NULL))
      )`);
    await q.query(`CREATE UNIQUE INDEX status_incident_notes_key ON status_incident_notes (coalesce(job_id, monitor_id), started_at)`);
    await q.query(`
      CREATE TABLE status_badges (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        token text NOT NULL,
        job_id uuid NULL REFERENCES jobs(id) ON DELETE CASCADE,
        monitor_id uuid NULL REFERENCES monitors(id) ON DELETE CASCADE,
        page_id uuid NULL REFERENCES status_pages(id) ON DELETE CASCADE,
        created_at timestamptz NOT NULL DEFAULT now(),
        CHECK (num_nonnulls(job_id, monitor_id, page_id) = 1)
      )`);
    await q.query(`CREATE UNIQUE INDEX status_badges_token_key ON status_badges (token)`);
    await q.query(`CREATE INDEX status_badges_user_idx ON status_badges (user_id, created_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE status_badges`);
    await q.query(`DROP TABLE status_incident_notes`);
    await q.query(`DROP TABLE status_page_items`);
    await q.query(`DROP TABLE status_pages`);
  }
}
