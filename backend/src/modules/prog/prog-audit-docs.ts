import type { AuditEvent, AuditPage } from '@cronbeam/shared/audit/audit';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

export const AUDIT_EVENT_EXAMPLE: AuditEvent = {
  id: '1042',
  actor_user_id: '0b6c7c0e-2f0a-4d1b-9a57-3f1e2d4c5b6a',
  actor_key_id: null,
  actor_ip: '203.0.113.7',
  request_id: '5d3c1b9a-7e2f-4a6b-8c0d-1e2f3a4b5c6d',
  action: 'job.updated',
  target_type: 'job',
  target_id: '5b0f7a2e-9c1d-4e8a-b3f6-2d4c6e8a0b1c',
  changes: { url: { before: 'https://example.com/old', after: 'https://example.com/new' }, headers: { before: { Authorization: '***' }, after: { Authorization: '*** (changed)' } } },
  created_at: '2026-11-27T09:12:44.120Z',
};

export const AUDIT_PAGE_EXAMPLE: AuditPage = { events: [AUDIT_EVENT_EXAMPLE], next_cursor: '2026-11-27 09:12:44.120417+00|1042' };

/** The answer's schema, keyed by the interface's fields so a new field does not compile until it is documented here. */
const EVENT_PROPERTIES: Record<keyof AuditEvent, object> = {
  id: { type: 'string', description: 'Increasing with time.' },
  actor_user_id: { type: 'string', format: 'uuid', nullable: true, description: 'The user who made the change (for an API key, its owner); null for a change the service made (a plan change from Stripe).' },
  actor_key_id: { type: 'string', format: 'uuid', nullable: true, description: 'The API key the change was made with; null for the web app.' },
  actor_ip: { type: 'string', nullable: true, description: 'The address the request came from.' },
  request_id: { type: 'string', nullable: true, description: "The request's X-Request-Id." },
  action: { type: 'string', description: '<resource>.<verb>: job.created, job.updated, job.deleted, job.paused, job.resumed, job.cloned, job.imported, job.bulk_created, job.bulk_paused, job.signing_secret_rotated...' },
  target_type: { type: 'string', description: 'job, tag (a bulk action on the jobs carrying it)...' },
  target_id: { type: 'string', nullable: true },
  changes: {
    type: 'object',
    additionalProperties: { type: 'object', properties: { before: {}, after: {} } },
    description: 'The fields that changed, before and after (null: did not exist). Secrets are shown as "***".',
  },
  created_at: { type: 'string', format: 'date-time' },
};

export function auditSchemas(): Record<string, object> {
  return {
    AuditEvent: { type: 'object', properties: EVENT_PROPERTIES, required: Object.keys(EVENT_PROPERTIES) },
    AuditPage: {
      type: 'object',
      properties: { events: { type: 'array', items: ref('AuditEvent') }, next_cursor: { type: 'string', nullable: true, description: 'Pass as cursor for the next, older page; null on the last.' } },
      required: ['events', 'next_cursor'],
    },
  };
}

export const auditPageRef = () => ref('AuditPage');
