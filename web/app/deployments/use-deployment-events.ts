import type { Deployment } from '@cronbeam/shared/deployments/deployment-types';
import { useServerEvents } from '../api/server-events';

function isDeployment(event: unknown): event is Deployment {
  return Boolean(event && typeof event === 'object' && typeof (event as Deployment).deployment_id === 'string' && Array.isArray((event as Deployment).steps));
}

/**
 * Follows the server's event stream for `deployment` events: each carries the
 * whole deployment with its steps, pushed as a step starts or ends.
 */
export function useDeploymentEvents(onDeployment: (deployment: Deployment) => void): void {
  useServerEvents((event) => {
    if (isDeployment(event)) onDeployment(event);
  });
}
