import { applyDecorators } from '@nestjs/common';
import { ApiBody, ApiParam } from '@nestjs/swagger';
import type { z } from 'zod';
import { STATUS_PAGE_MESSAGES, type StatusBadge, type StatusIncident, type StatusPage } from '@cronbeam/shared/notifications/status-pages';
import { JsonResponse } from './prog-docs.decorators';
import { requestSchema } from './openapi-zod';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const uuid = { type: 'string', format: 'uuid' };
const nullableUuid = { type: 'string', format: 'uuid', nullable: true };
const dateTime = { type: 'string', format: 'date-time' };

export const STATUS_PAGE_EXAMPLE: StatusPage = {
  page_id: '0c7d2a51-3e8f-4b6a-9d1c-5f2e8a4b7c90',
  slug: 'acme',
  title: 'Acme services',
  custom_domain: 'status.acme.com',
  items: [
    { job_id: '5b0f7a2e-9c1d-4e8a-b3f6-2d4c6e8a0b1c', monitor_id: null, tag: null, label: 'Nightly export' },
    { job_id: null, monitor_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', tag: null, label: null },
    { job_id: null, monitor_id: null, tag: 'billing', label: null },
  ],
  url: 'https://cronbeam.com/status/acme',
  feed_url: 'https://cronbeam.com/status/acme/feed.atom',
  created_at: '2026-11-01T09:12:00.000Z',
  updated_at: '2026-11-20T16:40:00.000Z',
};

export const STATUS_INCIDENT_EXAMPLE: StatusIncident = {
  job_id: '5b0f7a2e-9c1d-4e8a-b3f6-2d4c6e8a0b1c',
  monitor_id: null,
  name: 'Nightly export',
  started_at: '2026-11-19T03:00:02.000Z',
  resolved_at: '2026-11-19T03:15:01.000Z',
  failures: 3,
  note: 'The warehouse was down for maintenance.',
};

export const STATUS_BADGE_EXAMPLE: StatusBadge = {
  badge_id: '3f2e1d0c-9b8a-4f7e-a6d5-c4b3a2918f7e',
  job_id: '5b0f7a2e-9c1d-4e8a-b3f6-2d4c6e8a0b1c',
  monitor_id: null,
  page_id: null,
  url: 'https://cronbeam.com/badge/q7Yc0mF2pL9sX4vN8bR1tK6wE3hJ5gD0aZ2uC7iO9eM.svg',
  created_at: '2026-11-01T09:15:00.000Z',
};

/** The answers' schemas, keyed by the interfaces' fields so a new field does not compile until it is documented here. */
const PAGE_PROPERTIES: Record<keyof StatusPage, object> = {
  page_id: uuid,
  slug: { type: 'string', description: 'The page is published at /status/{slug}; unique across the service.' },
  title: { type: 'string' },
  custom_domain: { type: 'string', nullable: true, description: 'A host name (a CNAME to this service) that serves the page at / and its feed at /feed.atom.' },
  items: {
    type: 'array',
    description: 'The jobs and monitors shown, in order.',
    items: {
      type: 'object',
      properties: {
        job_id: nullableUuid,
        monitor_id: nullableUuid,
        tag: { type: 'string', nullable: true, description: 'Every job and monitor of yours carrying this tag, each under its own name.' },
        label: { type: 'string', nullable: true, description: "The public name; null: the job's or monitor's name." },
      },
      required: ['job_id', 'monitor_id', 'tag', 'label'],
    },
  },
  url: { type: 'string', format: 'uri' },
  feed_url: { type: 'string', format: 'uri', description: 'Atom feed of the incidents.' },
  created_at: dateTime,
  updated_at: dateTime,
};

const INCIDENT_PROPERTIES: Record<keyof StatusIncident, object> = {
  job_id: nullableUuid,
  monitor_id: nullableUuid,
  name: { type: 'string', description: 'The name the page shows.' },
  started_at: { ...dateTime, description: 'The first failed run (or failed or missed ping) of the episode; identifies the incident.' },
  resolved_at: { ...dateTime, nullable: true, description: 'The success that ended it; null while it lasts.' },
  failures: { type: 'integer', description: 'Failed runs (or failed and missed pings) in the episode.' },
  note: { type: 'string', nullable: true, description: "The owner's note, shown on the page and in the feed." },
};

const BADGE_PROPERTIES: Record<keyof StatusBadge, object> = {
  badge_id: uuid,
  job_id: nullableUuid,
  monitor_id: nullableUuid,
  page_id: nullableUuid,
  url: { type: 'string', format: 'uri', description: 'The SVG; anyone with the URL sees the state and uptime. Rotate it for a new one.' },
  created_at: dateTime,
};

const object = (properties: Record<string, object>) => ({ type: 'object', properties, required: Object.keys(properties) });

export function statusSchemas(): Record<string, object> {
  return {
    StatusPage: object(PAGE_PROPERTIES),
    StatusIncident: object(INCIDENT_PROPERTIES),
    StatusBadge: object(BADGE_PROPERTIES),
  };
}

export const statusPageRef = () => ref('StatusPage');
export const statusBadgeRef = () => ref('StatusBadge');
export const statusIncidentRef = () => ref('StatusIncident');

/** The `{page_id}` path parameter and its 404. */
export function PageIdParam() {
  return applyDecorators(
    ApiParam({ name: 'page_id', format: 'uuid', description: 'The page_id returned at creation' }),
    JsonResponse(404, 'No such status page among yours', ref('MessageError'), { detail: STATUS_PAGE_MESSAGES.notFound }),
  );
}

/** The `{badge_id}` path parameter and its 404. */
export function BadgeIdParam() {
  return applyDecorators(
    ApiParam({ name: 'badge_id', format: 'uuid', description: 'The badge_id returned at creation' }),
    JsonResponse(404, 'No such badge among yours', ref('MessageError'), { detail: STATUS_PAGE_MESSAGES.badgeNotFound }),
  );
}

/** A request body: its schema from the zod rules the server validates it with, and an example. */
export function StatusBody(rules: z.ZodType, summary: string, value: unknown) {
  return ApiBody({ schema: requestSchema(rules), examples: { example: { summary, value } } });
}

export const STATUS_PAGE_DEFINITION_EXAMPLE = {
  slug: 'acme',
  title: 'Acme services',
  custom_domain: 'status.acme.com',
  items: [{ job_id: '5b0f7a2e-9c1d-4e8a-b3f6-2d4c6e8a0b1c', label: 'Nightly export' }, { monitor_id: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d' }, { tag: 'billing' }],
};
