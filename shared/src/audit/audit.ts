import { z } from 'zod';

/**
 * The audit log: who changed what in an account, when and from where, with
 * the changed fields before and after (secrets shown as "***"). Read by the
 * account's owner and admins (GET /api/audit, /api/audit.csv, /prog/audit).
 */
export const AUDIT_LIMITS = { pageSize: 50, maxPageSize: 200, csvBatch: 1_000 } as const;

/** What a masked value is shown as. */
export const AUDIT_MASK = '***';

export const AUDIT_MESSAGES = {
  actor: 'actor must be the id of a user or an API key',
  target: 'target must be at most 200 characters',
  action: 'action must be an action (job.created) or a resource (job)',
  since: 'since must be an ISO 8601 date-time',
  until: 'until must be an ISO 8601 date-time',
  cursor: 'cursor must be a next_cursor the audit log answered',
  limit: `limit must be a whole number from 1 to ${AUDIT_LIMITS.maxPageSize}`,
} as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ACTION = /^[a-z_]{1,40}(\.[a-z_]{1,40})?$/;
/** A cursor is the last entry's time and id, as the server wrote them. */
const CURSOR = /^[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:.]{8,15}[+-][0-9:]{2,5}\|[0-9]{1,19}$/;

const optionalText = (check: z.ZodType<string>) => z.preprocess((value) => (value === '' ? undefined : value), check.optional());
const dateTime = (message: string) => optionalText(z.string({ error: message }).refine((value) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d{2}-\d{2}T/.test(value), message));

/** The filters of a list or CSV export (every one optional). */
export const auditQuerySchema = z.strictObject(
  {
    actor: optionalText(z.string({ error: AUDIT_MESSAGES.actor }).regex(UUID, AUDIT_MESSAGES.actor)),
    target: optionalText(z.string({ error: AUDIT_MESSAGES.target }).max(200, AUDIT_MESSAGES.target)),
    action: optionalText(z.string({ error: AUDIT_MESSAGES.action }).regex(ACTION, AUDIT_MESSAGES.action)),
    since: dateTime(AUDIT_MESSAGES.since),
    until: dateTime(AUDIT_MESSAGES.until),
    cursor: optionalText(z.string({ error: AUDIT_MESSAGES.cursor }).regex(CURSOR, AUDIT_MESSAGES.cursor)),
    limit: z.coerce
      .number({ error: AUDIT_MESSAGES.limit })
      .int(AUDIT_MESSAGES.limit)
      .min(1, AUDIT_MESSAGES.limit)
      .max(AUDIT_LIMITS.maxPageSize, AUDIT_MESSAGES.limit)
      .default(AUDIT_LIMITS.pageSize),
  },
  { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown filter: ${issue.keys.join(', ')}` : undefined) },
);
export type AuditQuery = z.output<typeof auditQuerySchema>;

/** One change of one field. */
export interface AuditFieldChange {
  before: unknown;
  after: unknown;
}

/** One entry of the audit log. */
export interface AuditEvent {
  id: string;
  /** The user who acted (for an API key, the user who owns it); null for the system (Stripe). */
  actor_user_id: string | null;
  actor_key_id: string | null;
  actor_ip: string | null;
  request_id: string | null;
  /** `<resource>.<verb>`: job.created, job.updated, job.deleted, job.paused... */
  action: string;
  target_type: string;
  target_id: string | null;
  changes: Record<string, AuditFieldChange>;
  created_at: string;
}

export interface AuditPage {
  events: AuditEvent[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  next_cursor: string | null;
}

/** The CSV export's columns, in order. */
export const AUDIT_CSV_COLUMNS = ['created_at', 'action', 'target_type', 'target_id', 'actor_user_id', 'actor_key_id', 'actor_ip', 'request_id', 'changes'] as const;
