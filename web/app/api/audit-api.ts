import type { AuditPage } from '@cronbeam/shared/audit/audit';
import { apiRequest } from './api-client';

/** The filters the audit page sends (empty ones are left out). */
export interface AuditFilters {
  actor?: string;
  target?: string;
  action?: string;
  since?: string;
  until?: string;
}

function queryOf(filters: AuditFilters & { cursor?: string }): string {
  const params = new URLSearchParams(Object.entries(filters).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
  const query = params.toString();
  return query ? `?${query}` : '';
}

/** The audit log endpoints, with the session's bearer token. */
export const auditApi = {
  page: (filters: AuditFilters, cursor?: string) => apiRequest<AuditPage>('GET', `/audit${queryOf({ ...filters, cursor })}`),
  csv: (filters: AuditFilters) => apiRequest<string>('GET', `/audit.csv${queryOf(filters)}`, { text: true }),
};
