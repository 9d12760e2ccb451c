import type { AlertChannel, AlertChannelDefinition, AlertDelivery } from '@cronbeam/shared/notifications/alert-channels';
import { apiRequest } from './api-client';

const path = (id: string) => `/alert-channels/${encodeURIComponent(id)}`;

/** The alert channel endpoints, with the session's bearer token. */
export const alertChannelsApi = {
  list: () => apiRequest<AlertChannel[]>('GET', '/alert-channels'),
  create: (definition: Omit<AlertChannelDefinition, 'job_ids'> & { job_ids?: string[] | null }) => apiRequest<AlertChannel>('POST', '/alert-channels', { body: definition }),
  remove: (id: string) => apiRequest<unknown>('DELETE', path(id)),
  test: (id: string) => apiRequest<AlertDelivery>('POST', `${path(id)}/test`),
  resendVerification: (id: string) => apiRequest<AlertChannel>('POST', `${path(id)}/resend-verification`),
  /** The recipient's confirmation from the mailed link: public, the token is the proof. */
  verify: (token: string) => apiRequest<{ message: string }>('POST', '/alert-channel-verifications', { auth: false, body: { token } }),
};
