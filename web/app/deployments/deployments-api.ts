import type { DeploymentRequestInput } from '@cronbeam/shared/deployments/deployment-rules';
import type { Deployment, DeploymentLimitExceeded, DeploymentStarted } from '@cronbeam/shared/deployments/deployment-types';
import { apiRequest } from '../api/api-client';
import { ApiRequestError } from '../api/api-error';

const path = (id: string) => `/deploy/n8n/${encodeURIComponent(id)}`;

/** The Self-Host N8N endpoints, with the session's bearer token. */
export const deploymentsApi = {
  start: (request: DeploymentRequestInput) => apiRequest<DeploymentStarted>('POST', '/deploy/n8n', { body: request }),
  list: () => apiRequest<Deployment[]>('GET', '/deploy/n8n'),
  get: (id: string) => apiRequest<Deployment>('GET', path(id)),
  remove: (id: string, flyToken: string) => apiRequest<{ message: string; deployment: Deployment }>('DELETE', path(id), { body: { fly_token: flyToken } }),
};

/** The 403 detail when this month's deployments are used up, else null. */
export function deploymentLimitOf(error: unknown): DeploymentLimitExceeded | null {
  if (!(error instanceof ApiRequestError) || error.status !== 403) return null;
  const detail = error.detail as Partial<DeploymentLimitExceeded> | null;
  return detail && typeof detail === 'object' && detail.error === 'N8N deployment limit exceeded' ? (detail as DeploymentLimitExceeded) : null;
}
