import type { ChangePasswordRequest, TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import type {
  RecoveryCodesResponse,
  RememberedDeviceView,
  SecondFactorProof,
  TotpSetupResponse,
  TwoFactorStatus,
} from '@cronbeam/shared/auth/mfa-schemas';
import { apiRequest } from '../api/api-client';
import { sessionStorageAdapter } from '../platform/platform';

/** The signed-in user's security endpoints (/api/auth/mfa, /devices, /profile, password, sign-out everywhere). */
export const accountSecurityApi = {
  status: () => apiRequest<TwoFactorStatus>('GET', '/auth/mfa'),
  setUpTotp: () => apiRequest<TotpSetupResponse>('POST', '/auth/mfa/totp/setup'),
  enableTotp: (code: string) => apiRequest<RecoveryCodesResponse>('POST', '/auth/mfa/totp/enable', { body: { code } }),
  disableTotp: (proof: SecondFactorProof) => apiRequest<unknown>('POST', '/auth/mfa/totp/disable', { body: proof }),
  regenerateRecoveryCodes: (proof: SecondFactorProof) => apiRequest<RecoveryCodesResponse>('POST', '/auth/mfa/recovery-codes', { body: proof }),
  devices: () => apiRequest<RememberedDeviceView[]>('GET', '/auth/devices'),
  forgetDevice: (deviceId: string) => apiRequest<unknown>('DELETE', `/auth/devices/${encodeURIComponent(deviceId)}`),
  changePassword: (request: ChangePasswordRequest) => apiRequest<unknown>('POST', '/auth/change-password', { body: request }),
  globalSignOut: () => apiRequest<unknown>('POST', '/auth/global-sign-out'),
  updateName: (name: string) => apiRequest<{ name: string }>('PATCH', '/auth/profile', { body: { name } }),
  /** New tokens (the ID token then carries the new name); the refresh token comes from storage or the HttpOnly cookie. */
  refresh: () => {
    const refreshToken = sessionStorageAdapter().get('refreshToken');
    return apiRequest<TokenResponse>('POST', '/auth/refresh', { auth: false, body: refreshToken ? { refresh_token: refreshToken } : {} });
  },
};
