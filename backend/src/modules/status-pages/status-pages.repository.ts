import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { returnedRows } from '../../common/database/query-rows';
import { pipelinedTransaction } from '../../common/database/transaction';
import { ReadDatabase, type ReadFrom } from '../../database/read-database';
import { auditChanges, auditedStatement, type Actor } from '../audit';

export interface StatusPageItemRow {
  job_id: string | null;
  monitor_id: string | null;
  tag: string | null;
  label: string | null;
}

export interface StatusPageRow {
  id: string;
  account_id: string;
  slug: string;
  title: string;
  custom_domain: string | null;
  items: StatusPageItemRow[];
  created_at: Date;
  updated_at: Date;
}

export interface PageColumns {
  slug: string;
  title: string;
  customDomain: string | null;
  items: StatusPageItemRow[];
}

export interface IncidentNoteRow {
  job_id: string | null;
  monitor_id: string | null;
  started_at: Date;
  note: string;
}

export interface StatusBadgeRow {
  id: string;
  account_id: string;
  token: string;
  job_id: string | null;
  monitor_id: string | null;
  page_id: string | null;
  created_at: Date;
}

/** A page with its items in order, as one row. */
const PAGE = `SELECT p.id, p.account_id, p.slug, p.title, p.custom_domain, p.created_at, p.updated_at,
  coalesce((SELECT json_agg(json_build_object('job_id', i.job_id, 'monitor_id', i.monitor_id, 'tag', i.tag, 'label', i.label) ORDER BY i.position)
              FROM status_page_items i WHERE i.page_id = p.id), '[]'::json) AS items
  FROM status_pages p`;

/** Inserts the items of JSON list $ITEMS for the page(s) of the FROM clause that follows. */
const insertItems = (items: string) => `INSERT INTO status_page_items (page_id, position, job_id, monitor_id, tag, label)
  SELECT p.id, i.n - 1, (i.item->>'job_id')::uuid, (i.item->>'monitor_id')::uuid, i.item->>'tag', i.item->>'label'
    FROM jsonb_array_elements(${items}::jsonb) WITH ORDINALITY AS i(item, n)`;

/** A page as its audit entries show it (`row`: the row alias; `items`: SQL of its items as the API writes them). */
const pageView = (row: string, items: string) => `jsonb_build_object('slug', ${row}.slug, 'title', ${row}.title, 'custom_domain', ${row}.custom_domain, 'items', ${items})`;
/** A page's stored items in the shape the API writes them, for its entry's "before". */
const storedItems = (page: string) =>
  `(SELECT coalesce(jsonb_agg(jsonb_build_object('job_id', job_id, 'monitor_id', monitor_id, 'tag', tag, 'label', label) ORDER BY position), '[]') FROM status_page_items WHERE page_id = ${page}.id)`;
/** A badge as its audit entries show it; its token is the public URL's secret part, shown only as changed. */
const badgeView = (row: string) => `jsonb_build_object('job_id', ${row}.job_id, 'monitor_id', ${row}.monitor_id, 'page_id', ${row}.page_id, 'token', ${row}.token)`;
const badgeChanges = (before: string, after: string) => auditChanges(before, after, ['token']);

/**
 * Every SQL statement on `status_pages`, `status_page_items`,
 * `status_incident_notes` and `status_badges` (one aggregate: the status
 * pages of an account and what hangs off them). The owner's queries are
 * scoped by account id; the public ones find a page by slug, domain or badge token.
 */
@Injectable()
export class StatusPagesRepository {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly read: ReadDatabase,
  ) {}

  listOwned(accountId: string, from: ReadFrom): Promise<StatusPageRow[]> {
    return this.read.query(from, `${PAGE} WHERE p.account_id = $1 ORDER BY p.created_at, p.id`, [accountId]);
  }

  async findOwned(accountId: string, pageId: string): Promise<StatusPageRow | null> {
    const [row] = await this.db.query(`${PAGE} WHERE p.id = $1 AND p.account_id = $2`, [pageId, accountId]);
    return row ?? null;
  }

  /** The public page at `slug`, shown only: from the replica. */
  async findBySlug(slug: string): Promise<StatusPageRow | null> {
    const [row] = await this.read.query<StatusPageRow[]>('replica', `${PAGE} WHERE p.slug = $1`, [slug]);
    return row ?? null;
  }

  /** The slug of the page a custom domain serves (to show it: from the replica). */
  async slugOfDomain(domain: string): Promise<string | null> {
    const [row] = await this.read.query<Array<{ slug: string }>>('replica', `SELECT slug FROM status_pages WHERE custom_domain = $1`, [domain]);
    return row?.slug ?? null;
  }

  /**
   * Inserts a page and its items unless the account has `max` pages already;
   * null then. The account's row is locked first, so two creations at once
   * cannot both pass the count.
   */
  async insert(actor: Actor, accountId: string, page: PageColumns, max: number): Promise<StatusPageRow | null> {
    const [, inserted] = await pipelinedTransaction<[unknown, Array<{ id: string }>]>(this.db, (tx) => [
      tx.query(`SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]),
      tx.query(
        ...auditedStatement(actor, {
          ctes: `p AS (
             INSERT INTO status_pages (account_id, slug, title, custom_domain)
             SELECT $1, $2, $3, $4 WHERE (SELECT count(*) FROM status_pages WHERE account_id = $1) < $5
             RETURNING *),
           items AS (${insertItems('$6')} CROSS JOIN p)`,
          params: [accountId, page.slug, page.title, page.customDomain, max, JSON.stringify(page.items)],
          from: 'p',
          action: 'status_page.created',
          targetType: 'status_page',
          targetId: 'p.id',
          changes: auditChanges('NULL', pageView('p', '$6::jsonb'), []),
          result: 'SELECT id FROM p',
        }),
      ),
    ]);
    return inserted[0] ? this.findOwned(accountId, inserted[0].id) : null;
  }

  /** Replaces the page's definition and items; false when it is not the account's. */
  async replace(actor: Actor, accountId: string, pageId: string, page: PageColumns): Promise<boolean> {
    const [updated] = await pipelinedTransaction<[unknown, unknown, unknown]>(this.db, (tx) => [
      // First, so its entry sees the items as they were.
      tx.query(
        ...auditedStatement(actor, {
          ctes: `b AS (SELECT * FROM status_pages WHERE id = $1 AND account_id = $2 FOR UPDATE),
            c AS (UPDATE status_pages s SET slug = $3, title = $4, custom_domain = $5, updated_at = now() FROM b WHERE s.id = b.id RETURNING s.*)`,
          params: [pageId, accountId, page.slug, page.title, page.customDomain, JSON.stringify(page.items)],
          from: 'c JOIN b ON b.id = c.id',
          action: 'status_page.updated',
          targetType: 'status_page',
          targetId: 'c.id',
          changes: auditChanges(pageView('b', storedItems('b')), pageView('c', '$6::jsonb'), []),
          result: 'SELECT id FROM c',
        }),
      ),
      tx.query(`DELETE FROM status_page_items WHERE page_id = (SELECT id FROM status_pages WHERE id = $1 AND account_id = $2)`, [pageId, accountId]),
      tx.query(`${insertItems('$3')} CROSS JOIN (SELECT id FROM status_pages WHERE id = $1 AND account_id = $2) p`, [pageId, accountId, JSON.stringify(page.items)]),
    ]);
    return returnedRows(updated).length > 0;
  }

  async deleteOwned(actor: Actor, accountId: string, pageId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM status_pages WHERE id = $1 AND account_id = $2 RETURNING *)`,
        params: [pageId, accountId],
        from: 'c',
        action: 'status_page.deleted',
        targetType: 'status_page',
        targetId: 'c.id',
        changes: auditChanges(pageView('c', 'NULL'), 'NULL', []),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  /** The account's notes on incidents of the given jobs and monitors that started since `since`. */
  notes(accountId: string, jobIds: string[], monitorIds: string[], since: Date): Promise<IncidentNoteRow[]> {
    return this.db.query(
      `SELECT job_id, monitor_id, started_at, note FROM status_incident_notes
        WHERE account_id = $1 AND (job_id = ANY($2::uuid[]) OR monitor_id = ANY($3::uuid[])) AND started_at >= $4`,
      [accountId, jobIds, monitorIds, since],
    );
  }

  /** Writes the note on an incident of an item of the page `pageId`, with the page's audit entry of the note before and after. */
  async saveNote(actor: Actor, pageId: string, accountId: string, subject: { jobId: string | null; monitorId: string | null }, startedAt: Date, note: string): Promise<void> {
    await this.db.query(
      ...auditedStatement(actor, {
        ctes: `b AS (SELECT note FROM status_incident_notes WHERE account_id = $1 AND coalesce(job_id, monitor_id) = coalesce($2::uuid, $3::uuid) AND started_at = $4::timestamptz FOR UPDATE),
          c AS (INSERT INTO status_incident_notes (account_id, job_id, monitor_id, started_at, note) VALUES ($1, $2::uuid, $3::uuid, $4::timestamptz, $5)
                ON CONFLICT (coalesce(job_id, monitor_id), started_at) DO UPDATE SET note = EXCLUDED.note, updated_at = now()
                RETURNING job_id, monitor_id, started_at, note)`,
        params: [accountId, subject.jobId, subject.monitorId, startedAt, note, pageId],
        from: 'c',
        action: 'status_page.incident_note_set',
        targetType: 'status_page',
        targetId: '$6::text',
        changes: `jsonb_build_object('incident', jsonb_build_object('before', NULL, 'after', jsonb_build_object('job_id', c.job_id, 'monitor_id', c.monitor_id, 'started_at', c.started_at)))
          || ${auditChanges(`jsonb_build_object('note', (SELECT note FROM b))`, `jsonb_build_object('note', c.note)`, [])}`,
        result: 'SELECT 1 FROM c',
      }),
    );
  }

  /** Removes the note on an incident, with the page's audit entry (written even when there was no note: the request still cleared it). */
  async deleteNote(actor: Actor, pageId: string, accountId: string, subjectId: string, startedAt: Date): Promise<void> {
    await this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM status_incident_notes WHERE account_id = $1 AND coalesce(job_id, monitor_id) = $2 AND started_at = $3 RETURNING note)`,
        params: [accountId, subjectId, startedAt, pageId],
        from: '(SELECT max(note) AS note FROM c) c',
        action: 'status_page.incident_note_deleted',
        targetType: 'status_page',
        targetId: '$4::text',
        changes: `jsonb_build_object('incident', jsonb_build_object('before', NULL, 'after', jsonb_build_object('subject_id', $2::uuid, 'started_at', $3::timestamptz)))
          || ${auditChanges(`jsonb_build_object('note', c.note)`, `jsonb_build_object('note', NULL)`, [])}`,
        result: 'SELECT 1',
      }),
    );
  }

  listBadges(accountId: string): Promise<StatusBadgeRow[]> {
    return this.db.query(`SELECT * FROM status_badges WHERE account_id = $1 ORDER BY created_at, id`, [accountId]);
  }

  async findBadgeByToken(token: string): Promise<StatusBadgeRow | null> {
    const [row] = await this.db.query(`SELECT * FROM status_badges WHERE token = $1`, [token]);
    return row ?? null;
  }

  /** Inserts a badge unless the account has `max` already (null then); the account's row is locked for the count. */
  async insertBadge(actor: Actor, accountId: string, token: string, subject: { jobId: string | null; monitorId: string | null; pageId: string | null }, max: number): Promise<StatusBadgeRow | null> {
    const [, rows] = await pipelinedTransaction<[unknown, StatusBadgeRow[]]>(this.db, (tx) => [
      tx.query(`SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]),
      tx.query(
        ...auditedStatement(actor, {
          ctes: `c AS (INSERT INTO status_badges (account_id, token, job_id, monitor_id, page_id)
                 SELECT $1, $2, $3, $4, $5 WHERE (SELECT count(*) FROM status_badges WHERE account_id = $1) < $6 RETURNING *)`,
          params: [accountId, token, subject.jobId, subject.monitorId, subject.pageId, max],
          from: 'c',
          action: 'status_badge.created',
          targetType: 'status_badge',
          targetId: 'c.id',
          changes: badgeChanges('NULL', badgeView('c')),
          result: 'SELECT * FROM c',
        }),
      ),
    ]);
    return rows[0] ?? null;
  }

  /** A new token for the account's badge (the old URL stops working), with the old token; null when it is not the account's. */
  async rotateBadge(actor: Actor, accountId: string, badgeId: string, token: string): Promise<(StatusBadgeRow & { old_token: string }) | null> {
    const [row] = returnedRows<StatusBadgeRow & { old_token: string }>(
      await this.db.query(
        ...auditedStatement(actor, {
          ctes: `o AS (SELECT * FROM status_badges WHERE id = $1 AND account_id = $2 FOR UPDATE),
            c AS (UPDATE status_badges b SET token = $3 FROM o WHERE b.id = o.id RETURNING b.*, o.token AS old_token)`,
          params: [badgeId, accountId, token],
          from: 'c JOIN o ON o.id = c.id',
          action: 'status_badge.rotated',
          targetType: 'status_badge',
          targetId: 'c.id',
          changes: badgeChanges(badgeView('o'), badgeView('c')),
          result: 'SELECT * FROM c',
        }),
      ),
    );
    return row ?? null;
  }

  /** Deletes the account's badge; its token, or null when it is not the account's. */
  async deleteBadge(actor: Actor, accountId: string, badgeId: string): Promise<string | null> {
    const [row] = returnedRows<{ token: string }>(
      await this.db.query(
        ...auditedStatement(actor, {
          ctes: `c AS (DELETE FROM status_badges WHERE id = $1 AND account_id = $2 RETURNING *)`,
          params: [badgeId, accountId],
          from: 'c',
          action: 'status_badge.deleted',
          targetType: 'status_badge',
          targetId: 'c.id',
          changes: badgeChanges(badgeView('c'), 'NULL'),
          result: 'SELECT token FROM c',
        }),
      ),
    );
    return row?.token ?? null;
  }
}
