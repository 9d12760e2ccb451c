/**
 * What /pricing needs only once the visitor acts or is signed in: the API
 * client, its errors and the billing messages. One module, loaded on first
 * use, so the prerendered page's first load carries none of it (nor the
 * validation library the shared billing types bring).
 */
export { BILLING_MESSAGES } from '@cronbeam/shared/billing/billing-types';
export { ApiRequestError, errorMessage } from '../api/api-error';
export { billingApi } from './billing-api';
