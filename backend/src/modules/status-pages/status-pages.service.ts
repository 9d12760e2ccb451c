import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { hostMatches } from '@cronbeam/shared/site/host-guard';
import {
  STATUS_PAGE_LIMITS,
  STATUS_PAGE_MESSAGES,
  type BadgeDefinition,
  type IncidentNoteDefinition,
  type StatusBadge,
  type StatusIncident,
  type StatusPage,
  type StatusPageDefinition,
} from '@cronbeam/shared/notifications/status-pages';
import type { Actor } from '../audit';
import { isForeignKeyViolation, isUniqueViolation } from '../../common/database/constraint-violation';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { AppConfig } from '../../config/app-config';
import type { ReadFrom } from '../../database/read-database';
import { JobsService } from '../jobs/jobs.service';
import { MonitorsService } from '../monitors/monitors.service';
import { StatusHistoryService } from './status-history.service';
import { StatusPagesRepository, type StatusBadgeRow, type StatusPageItemRow, type StatusPageRow } from './status-pages.repository';
import { noteKey } from './status-render';

/** Incidents the owner's list shows (the public page shows fewer). */
const OWNER_INCIDENTS = 50;

/** A change the public side must not serve from its cache: a page's definition or notes, or a badge URL that was rotated or revoked. */
export interface PublicChange {
  pageId?: string;
  badgeToken?: string;
}

/** A badge token: 32 random bytes, as unguessable as an API key. */
const newBadgeToken = () => randomBytes(32).toString('base64url');

/**
 * Status pages and badges as their owner manages them: create, replace and
 * delete pages (only the owner's jobs and monitors may be put on one), write
 * notes on incidents, and create, rotate and revoke badges. Changes are
 * announced to PublicStatus, which drops what it cached of the page.
 */
@Injectable()
export class StatusPagesService {
  private readonly changeListeners: Array<(change: PublicChange) => void> = [];

  constructor(
    private readonly pages: StatusPagesRepository,
    private readonly jobs: JobsService,
    private readonly monitors: MonitorsService,
    private readonly history: StatusHistoryService,
    private readonly config: AppConfig,
  ) {}

  /** Told of every change to what the public sees, so caches drop it. */
  onPublicChange(listener: (change: PublicChange) => void): void {
    this.changeListeners.push(listener);
  }

  private changed(change: PublicChange): void {
    for (const listener of this.changeListeners) listener(change);
  }

  async list(accountId: string): Promise<StatusPage[]> {
    return (await this.pages.listOwned(accountId, 'replica')).map((row) => this.view(row));
  }

  async get(accountId: string, pageId: string): Promise<StatusPage> {
    return this.view(await this.find(accountId, pageId));
  }

  async create(actor: Actor, accountId: string, definition: StatusPageDefinition): Promise<StatusPage> {
    const columns = await this.checked(accountId, definition);
    const row = await this.saving(() => this.pages.insert(actor, accountId, columns, STATUS_PAGE_LIMITS.pagesPerAccount));
    if (!row) throw ApiError.forbidden(STATUS_PAGE_MESSAGES.pageLimit);
    this.changed({ pageId: row.id });
    return this.view(row);
  }

  async update(actor: Actor, accountId: string, pageId: string, definition: StatusPageDefinition): Promise<StatusPage> {
    const current = await this.find(accountId, pageId);
    const columns = await this.checked(accountId, definition);
    const replaced = await this.saving(() => this.pages.replace(actor, accountId, current.id, columns));
    if (!replaced) throw ApiError.notFound(STATUS_PAGE_MESSAGES.notFound);
    this.changed({ pageId: current.id });
    return this.get(accountId, current.id);
  }

  async remove(actor: Actor, accountId: string, pageId: string): Promise<void> {
    if (!isUuid(pageId) || !(await this.pages.deleteOwned(actor, accountId, pageId))) throw ApiError.notFound(STATUS_PAGE_MESSAGES.notFound);
    this.changed({ pageId });
  }

  /** The incidents of the page's items over the history window, newest first, with the owner's notes. */
  async incidents(accountId: string, pageId: string, from: ReadFrom): Promise<StatusIncident[]> {
    const page = await this.find(accountId, pageId);
    const snapshot = await this.history.snapshot(accountId, page.items, OWNER_INCIDENTS, from);
    const notes = await this.notes(accountId, await this.history.expand(accountId, page.items, from));
    return snapshot.incidents.map((i) => ({
      job_id: i.kind === 'job' ? i.subjectId : null,
      monitor_id: i.kind === 'monitor' ? i.subjectId : null,
      name: i.name,
      started_at: i.startedAt.toISOString(),
      resolved_at: i.resolvedAt?.toISOString() ?? null,
      failures: i.failures,
      note: notes.get(noteKey(i.subjectId, i.startedAt)) ?? null,
    }));
  }

  /** The owner's notes on incidents of these items, by noteKey. */
  async notes(accountId: string, items: StatusPageItemRow[]): Promise<Map<string, string>> {
    const jobIds = items.flatMap((i) => (i.job_id ? [i.job_id] : []));
    const monitorIds = items.flatMap((i) => (i.monitor_id ? [i.monitor_id] : []));
    if (!jobIds.length && !monitorIds.length) return new Map();
    const rows = await this.pages.notes(accountId, jobIds, monitorIds, StatusHistoryService.since(new Date()));
    return new Map(rows.map((r) => [noteKey((r.job_id ?? r.monitor_id)!, new Date(r.started_at)), r.note]));
  }

  /** Writes (or, when empty, removes) the owner's note on one incident of an item of the page. */
  async setNote(actor: Actor, accountId: string, pageId: string, body: IncidentNoteDefinition): Promise<StatusIncident> {
    const page = await this.find(accountId, pageId);
    const subjectId = (body.job_id ?? body.monitor_id)!;
    const field = body.job_id !== undefined ? 'job_id' : 'monitor_id';
    const onPage = (await this.history.expand(accountId, page.items, 'primary')).some((i) => (field === 'job_id' ? i.job_id : i.monitor_id) === subjectId);
    if (!onPage) throw ApiError.invalidField(['body', field], STATUS_PAGE_MESSAGES.notOnPage);
    const startedAt = new Date(body.started_at);
    const incident = (await this.incidents(accountId, page.id, 'primary')).find((i) => (i.job_id ?? i.monitor_id) === subjectId && Date.parse(i.started_at) === startedAt.getTime());
    if (!incident) throw ApiError.invalidField(['body', 'started_at'], STATUS_PAGE_MESSAGES.startedAt);
    if (body.note === '') await this.pages.deleteNote(actor, page.id, accountId, subjectId, startedAt);
    else await this.pages.saveNote(actor, page.id, accountId, { jobId: body.job_id ?? null, monitorId: body.monitor_id ?? null }, startedAt, body.note);
    // Every page showing the item shows the note: they all drop what they cached.
    for (const other of await this.pages.listOwned(accountId, 'primary')) if (other.items.some((i) => i.tag || (i.job_id ?? i.monitor_id) === subjectId)) this.changed({ pageId: other.id });
    return { ...incident, note: body.note === '' ? null : body.note };
  }

  async badges(accountId: string): Promise<StatusBadge[]> {
    return (await this.pages.listBadges(accountId)).map((row) => this.badgeView(row));
  }

  async createBadge(actor: Actor, accountId: string, body: BadgeDefinition): Promise<StatusBadge> {
    if (body.job_id !== undefined && !(await this.jobs.summaries(accountId, [body.job_id])).length) throw ApiError.invalidField(['body', 'job_id'], STATUS_PAGE_MESSAGES.unknownJob);
    if (body.monitor_id !== undefined && !(await this.monitors.summaries(accountId, [body.monitor_id])).length) {
      throw ApiError.invalidField(['body', 'monitor_id'], STATUS_PAGE_MESSAGES.unknownMonitor);
    }
    if (body.page_id !== undefined && !(isUuid(body.page_id) && (await this.pages.findOwned(accountId, body.page_id)))) {
      throw ApiError.invalidField(['body', 'page_id'], STATUS_PAGE_MESSAGES.unknownPage);
    }
    const subject = { jobId: body.job_id ?? null, monitorId: body.monitor_id ?? null, pageId: body.page_id ?? null };
    let row: StatusBadgeRow | null;
    try {
      row = await this.pages.insertBadge(actor, accountId, newBadgeToken(), subject, STATUS_PAGE_LIMITS.badgesPerAccount);
    } catch (error) {
      // Its subject was deleted meanwhile.
      if (isForeignKeyViolation(error)) throw ApiError.invalidField(['body', body.job_id ? 'job_id' : body.monitor_id ? 'monitor_id' : 'page_id'], STATUS_PAGE_MESSAGES.badgeSubject);
      throw error;
    }
    if (!row) throw ApiError.forbidden(STATUS_PAGE_MESSAGES.badgeLimit);
    return this.badgeView(row);
  }

  /** A new URL for the badge; the old one answers 404 from then on. */
  async rotateBadge(actor: Actor, accountId: string, badgeId: string): Promise<StatusBadge> {
    const row = isUuid(badgeId) ? await this.pages.rotateBadge(actor, accountId, badgeId, newBadgeToken()) : null;
    if (!row) throw ApiError.notFound(STATUS_PAGE_MESSAGES.badgeNotFound);
    this.changed({ badgeToken: row.old_token });
    return this.badgeView(row);
  }

  async removeBadge(actor: Actor, accountId: string, badgeId: string): Promise<void> {
    const token = isUuid(badgeId) ? await this.pages.deleteBadge(actor, accountId, badgeId) : null;
    if (!token) throw ApiError.notFound(STATUS_PAGE_MESSAGES.badgeNotFound);
    this.changed({ badgeToken: token });
  }

  private async find(accountId: string, pageId: string): Promise<StatusPageRow> {
    const row = isUuid(pageId) ? await this.pages.findOwned(accountId, pageId) : null;
    if (!row) throw ApiError.notFound(STATUS_PAGE_MESSAGES.notFound);
    return row;
  }

  /** The definition as columns, once every item is one of the account's jobs or monitors, named once, and the domain is not one of ours. */
  private async checked(accountId: string, definition: StatusPageDefinition) {
    if (definition.custom_domain && this.isOwnHost(definition.custom_domain)) throw ApiError.invalidField(['body', 'custom_domain'], STATUS_PAGE_MESSAGES.customDomainOurs);
    const seen = new Set<string>();
    definition.items.forEach((item, index) => {
      const id = item.job_id ?? item.monitor_id ?? `tag:${item.tag!}`;
      const field = item.job_id !== undefined ? 'job_id' : item.monitor_id !== undefined ? 'monitor_id' : 'tag';
      if (seen.has(id)) throw ApiError.invalidField(['body', 'items', index, field], STATUS_PAGE_MESSAGES.duplicateItem);
      seen.add(id);
    });
    const jobIds = definition.items.flatMap((i) => (i.job_id !== undefined ? [i.job_id] : []));
    const monitorIds = definition.items.flatMap((i) => (i.monitor_id !== undefined ? [i.monitor_id] : []));
    const [jobs, monitors] = await Promise.all([this.jobs.summaries(accountId, jobIds), this.monitors.summaries(accountId, monitorIds)]);
    const own = new Set([...jobs.map((j) => j.id), ...monitors.map((m) => m.id)]);
    definition.items.forEach((item, index) => {
      if (item.job_id !== undefined && !own.has(item.job_id)) throw ApiError.invalidField(['body', 'items', index, 'job_id'], STATUS_PAGE_MESSAGES.unknownJob);
      if (item.monitor_id !== undefined && !own.has(item.monitor_id)) throw ApiError.invalidField(['body', 'items', index, 'monitor_id'], STATUS_PAGE_MESSAGES.unknownMonitor);
    });
    return {
      slug: definition.slug,
      title: definition.title,
      customDomain: definition.custom_domain,
      items: definition.items.map((i) => ({ job_id: i.job_id ?? null, monitor_id: i.monitor_id ?? null, tag: i.tag ?? null, label: i.label })),
    };
  }

  /** Maps the unique indexes to the fields they guard; an item deleted meanwhile is a 422 too. */
  private async saving<T>(save: () => Promise<T>): Promise<T> {
    try {
      return await save();
    } catch (error) {
      if (isUniqueViolation(error, 'status_pages_slug_key')) throw ApiError.invalidField(['body', 'slug'], STATUS_PAGE_MESSAGES.slugTaken);
      if (isUniqueViolation(error, 'status_pages_custom_domain_key')) throw ApiError.invalidField(['body', 'custom_domain'], STATUS_PAGE_MESSAGES.customDomainTaken);
      if (isForeignKeyViolation(error)) throw ApiError.invalidField(['body', 'items'], STATUS_PAGE_MESSAGES.items);
      throw error;
    }
  }

  /** True for a host this service answers as itself (its public URL, app, site and staging hosts). */
  isOwnHost(host: string): boolean {
    const env = this.config.env;
    const own = [new URL(this.config.publicUrl).host, env.APP_HOST, env.MARKETING_HOST, env.DEV_HOST];
    return own.some((configured) => hostMatches(configured, host));
  }

  private view(row: StatusPageRow): StatusPage {
    const url = `${this.config.publicUrl}/status/${row.slug}`;
    return {
      page_id: row.id,
      slug: row.slug,
      title: row.title,
      custom_domain: row.custom_domain,
      items: row.items.map((i) => ({ job_id: i.job_id, monitor_id: i.monitor_id, tag: i.tag, label: i.label })),
      url,
      feed_url: `${url}/feed.atom`,
      created_at: new Date(row.created_at).toISOString(),
      updated_at: new Date(row.updated_at).toISOString(),
    };
  }

  private badgeView(row: StatusBadgeRow): StatusBadge {
    return {
      badge_id: row.id,
      job_id: row.job_id,
      monitor_id: row.monitor_id,
      page_id: row.page_id,
      url: `${this.config.publicUrl}/badge/${row.token}.svg`,
      created_at: new Date(row.created_at).toISOString(),
    };
  }
}
