import {
  BILLING_PATHS,
  type CancelResponse,
  type CheckoutRequest,
  type CheckoutResponse,
  type PlanChangeRequest,
  type PlanChangeResponse,
  type ProfileStats,
} from '@cronbeam/shared/billing/billing-types';
import type { ApiKeySummary, GeneratedApiKey } from '@cronbeam/shared/jobs/api-key-types';
import { apiRequest } from '../api/api-client';

/** The billing, profile, API-key and account calls of /pricing and /profile. */
export const billingApi = {
  createCheckout: (request: CheckoutRequest) => apiRequest<CheckoutResponse>('POST', BILLING_PATHS.createCheckoutSession, { body: request }),
  confirmPlanChange: (request: PlanChangeRequest) => apiRequest<PlanChangeResponse>('POST', BILLING_PATHS.confirmPlanChange, { body: request }),
  cancelSubscription: () => apiRequest<CancelResponse>('POST', BILLING_PATHS.cancelSubscription, { body: {} }),
  /** `quiet`: a stale session only fails the call (the public pricing page must not jump to /login). */
  profileStats: (quiet = false) => apiRequest<ProfileStats>('GET', BILLING_PATHS.profileStats, quiet ? { on401: 'report' } : {}),
  listApiKeys: () => apiRequest<ApiKeySummary[]>('GET', '/api-keys'),
  generateApiKey: (name: string) => apiRequest<GeneratedApiKey>('POST', '/api-keys/generate', { body: { name } }),
  deleteApiKey: (keyId: string) => apiRequest<unknown>('DELETE', `/api-keys/${encodeURIComponent(keyId)}`),
  deleteAccount: () => apiRequest<unknown>('DELETE', '/account'),
};
