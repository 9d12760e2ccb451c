import { z } from 'zod';
import { tagSchema } from '../tags/tags';

/** Limits of public status pages and badges. */
export const STATUS_PAGE_LIMITS = {
  pagesPerAccount: 20,
  itemsPerPage: 50,
  slugMinLength: 3,
  slugMaxLength: 63,
  titleMaxLength: 80,
  labelMaxLength: 50,
  noteMaxLength: 2000,
  badgesPerAccount: 200,
  /** Days of history the uptime bars, percentages and incidents cover. */
  historyDays: 90,
} as const;

export const STATUS_PAGE_MESSAGES = {
  slug: `slug must be ${STATUS_PAGE_LIMITS.slugMinLength} to ${STATUS_PAGE_LIMITS.slugMaxLength} lowercase letters, digits and hyphens, not starting or ending with a hyphen`,
  slugTaken: 'This slug is taken; choose another',
  title: `title must be 1 to ${STATUS_PAGE_LIMITS.titleMaxLength} characters`,
  customDomain: 'custom_domain must be a host name such as status.example.com (no scheme, port or path), or null',
  customDomainTaken: 'This custom domain is used by another status page',
  customDomainOurs: "custom_domain cannot be one of this service's own hosts",
  items: `items must be a list of at most ${STATUS_PAGE_LIMITS.itemsPerPage} entries, each with one of job_id, monitor_id or tag`,
  item: 'Each item names one of job_id, monitor_id or tag',
  noteItem: 'A note names either job_id or monitor_id',
  label: `label must be 1 to ${STATUS_PAGE_LIMITS.labelMaxLength} characters, or null for the job's or monitor's name`,
  duplicateItem: 'This job or monitor is already on the page',
  unknownJob: 'job_id names a job that is not yours',
  unknownMonitor: 'monitor_id names a monitor that is not yours',
  pageLimit: `An account has at most ${STATUS_PAGE_LIMITS.pagesPerAccount} status pages`,
  notFound: 'Status page not found',
  note: `note must be at most ${STATUS_PAGE_LIMITS.noteMaxLength} characters (empty removes it)`,
  startedAt: 'started_at must be the start time of one of the item\'s incidents (an ISO 8601 date and time)',
  notOnPage: 'The job or monitor is not on this status page',
  badgeSubject: 'Give exactly one of job_id, monitor_id or page_id',
  unknownPage: 'page_id names a status page that is not yours',
  badgeLimit: `An account has at most ${STATUS_PAGE_LIMITS.badgesPerAccount} badges`,
  badgeNotFound: 'Badge not found',
} as const;

/** Public state of an item (or a whole page: its worst item). */
export const STATUS_STATES = ['up', 'down', 'paused', 'unknown'] as const;
export type StatusState = (typeof STATUS_STATES)[number];

const strictObject = <T extends z.core.$ZodLooseShape>(shape: T) =>
  z.strictObject(shape, { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) });

/** One DNS label: letters, digits and inner hyphens. */
const LABEL = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

/** A host name a customer points at us (a CNAME): at least two labels, no port, no trailing dot. */
export function isCustomDomain(value: string): boolean {
  if (value.length < 4 || value.length > 253) return false;
  const labels = value.split('.');
  return labels.length >= 2 && labels.every((l) => l.length <= 63 && LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!);
}

export function isSlug(value: string): boolean {
  return value.length >= STATUS_PAGE_LIMITS.slugMinLength && value.length <= STATUS_PAGE_LIMITS.slugMaxLength && LABEL.test(value);
}

const idField = (message: string) => z.string({ error: message }).min(1, message).max(100, message);

const itemSchema = strictObject({
  job_id: idField(STATUS_PAGE_MESSAGES.item).optional(),
  monitor_id: idField(STATUS_PAGE_MESSAGES.item).optional(),
  /** Every job and monitor of the owner carrying this tag, now and later. */
  tag: tagSchema.optional(),
  label: z.string({ error: STATUS_PAGE_MESSAGES.label }).trim().min(1, STATUS_PAGE_MESSAGES.label).max(STATUS_PAGE_LIMITS.labelMaxLength, STATUS_PAGE_MESSAGES.label).nullable().default(null),
}).superRefine((item, ctx) => {
  if ([item.job_id, item.monitor_id, item.tag].filter((v) => v !== undefined).length !== 1) ctx.addIssue({ code: 'custom', message: STATUS_PAGE_MESSAGES.item, path: ['job_id'] });
});

/** A status page definition, for create and for update (PUT replaces it whole). */
export const statusPageSchema = strictObject({
  slug: z
    .string({ error: STATUS_PAGE_MESSAGES.slug })
    .trim()
    .toLowerCase()
    .refine((s) => isSlug(s), STATUS_PAGE_MESSAGES.slug),
  title: z.string({ error: STATUS_PAGE_MESSAGES.title }).trim().min(1, STATUS_PAGE_MESSAGES.title).max(STATUS_PAGE_LIMITS.titleMaxLength, STATUS_PAGE_MESSAGES.title),
  custom_domain: z
    .string({ error: STATUS_PAGE_MESSAGES.customDomain })
    .trim()
    .toLowerCase()
    .refine((d) => isCustomDomain(d), STATUS_PAGE_MESSAGES.customDomain)
    .nullable()
    .default(null),
  items: z.array(itemSchema, { error: STATUS_PAGE_MESSAGES.items }).max(STATUS_PAGE_LIMITS.itemsPerPage, STATUS_PAGE_MESSAGES.items).default([]),
});
export type StatusPageDefinition = z.infer<typeof statusPageSchema>;
export type StatusPageItemDefinition = StatusPageDefinition['items'][number];

/** The owner's note on one incident of an item of the page; an empty note removes it. */
export const incidentNoteSchema = strictObject({
  job_id: idField(STATUS_PAGE_MESSAGES.item).optional(),
  monitor_id: idField(STATUS_PAGE_MESSAGES.item).optional(),
  started_at: z.iso.datetime({ offset: true, error: STATUS_PAGE_MESSAGES.startedAt }),
  note: z.string({ error: STATUS_PAGE_MESSAGES.note }).trim().max(STATUS_PAGE_LIMITS.noteMaxLength, STATUS_PAGE_MESSAGES.note),
}).superRefine((n, ctx) => {
  if ((n.job_id === undefined) === (n.monitor_id === undefined)) ctx.addIssue({ code: 'custom', message: STATUS_PAGE_MESSAGES.noteItem, path: ['job_id'] });
});
export type IncidentNoteDefinition = z.infer<typeof incidentNoteSchema>;

/** What a new badge shows: one job, monitor or status page of the account. */
export const badgeSchema = strictObject({
  job_id: idField(STATUS_PAGE_MESSAGES.badgeSubject).optional(),
  monitor_id: idField(STATUS_PAGE_MESSAGES.badgeSubject).optional(),
  page_id: idField(STATUS_PAGE_MESSAGES.badgeSubject).optional(),
}).superRefine((b, ctx) => {
  if ([b.job_id, b.monitor_id, b.page_id].filter((v) => v !== undefined).length !== 1) ctx.addIssue({ code: 'custom', message: STATUS_PAGE_MESSAGES.badgeSubject, path: ['job_id'] });
});
export type BadgeDefinition = z.infer<typeof badgeSchema>;

/** One item of a status page as its owner sees it. */
export interface StatusPageItem {
  job_id: string | null;
  monitor_id: string | null;
  /** Every job and monitor carrying the tag (each under its own name). */
  tag: string | null;
  label: string | null;
}

/** A status page as the API answers it. */
export interface StatusPage {
  page_id: string;
  slug: string;
  title: string;
  custom_domain: string | null;
  items: StatusPageItem[];
  /** Where the page is published (on this service; the custom domain serves it at its root too). */
  url: string;
  feed_url: string;
  created_at: string;
  updated_at: string;
}

/** A failure episode of an item, as the owner sees it to write its note. */
export interface StatusIncident {
  job_id: string | null;
  monitor_id: string | null;
  name: string;
  started_at: string;
  /** Null while it lasts. */
  resolved_at: string | null;
  failures: number;
  note: string | null;
}

/** A badge: an SVG of the subject's state and uptime at an unguessable URL. */
export interface StatusBadge {
  badge_id: string;
  job_id: string | null;
  monitor_id: string | null;
  page_id: string | null;
  url: string;
  created_at: string;
}
