import type { BadgeDefinition, StatusBadge, StatusIncident, StatusPage } from '@cronbeam/shared/notifications/status-pages';
import { apiRequest } from './api-client';

/** What the status page form sends: the page's fields and its items in order (label null: the job's or monitor's name). */
export interface StatusPageInput {
  slug: string;
  title: string;
  custom_domain: string | null;
  items: Array<{ job_id: string; label: string | null } | { monitor_id: string; label: string | null } | { tag: string; label: null }>;
}

/** A note on one incident of an item of the page; empty removes it. */
export interface IncidentNoteInput {
  job_id?: string;
  monitor_id?: string;
  started_at: string;
  note: string;
}

const page = (id: string) => `/status-pages/${encodeURIComponent(id)}`;
const badge = (id: string) => `/status-badges/${encodeURIComponent(id)}`;

/** The status page and badge endpoints, with the session's bearer token. */
export const statusPagesApi = {
  list: () => apiRequest<StatusPage[]>('GET', '/status-pages'),
  create: (input: StatusPageInput) => apiRequest<StatusPage>('POST', '/status-pages', { body: input }),
  update: (id: string, input: StatusPageInput) => apiRequest<StatusPage>('PUT', page(id), { body: input }),
  remove: (id: string) => apiRequest<unknown>('DELETE', page(id)),
  incidents: (id: string) => apiRequest<{ incidents: StatusIncident[] }>('GET', `${page(id)}/incidents`),
  setNote: (id: string, input: IncidentNoteInput) => apiRequest<StatusIncident>('PUT', `${page(id)}/incidents/note`, { body: input }),
  badges: () => apiRequest<StatusBadge[]>('GET', '/status-badges'),
  createBadge: (input: BadgeDefinition) => apiRequest<StatusBadge>('POST', '/status-badges', { body: input }),
  rotateBadge: (id: string) => apiRequest<StatusBadge>('POST', `${badge(id)}/rotate`),
  removeBadge: (id: string) => apiRequest<unknown>('DELETE', badge(id)),
};
