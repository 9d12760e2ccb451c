import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import { apiBase } from '../platform/platform';
import { apiRequest, isTransient } from './api-client';
import { withRetry } from './retry';

/** The identity endpoints (/api/auth/...). All public except logout. */
export const authApi = {
  /** Retried on network errors, timeouts and 503 (a login must survive a brief outage, never repeat a refused password). */
  login: (email: string, password: string) =>
    withRetry(() => apiRequest<TokenResponse>('POST', '/auth/login', { auth: false, body: { email, password } }), {
      shouldRetry: isTransient,
    }),
  signup: (name: string, email: string, password: string) =>
    apiRequest<unknown>('POST', '/auth/signup', { auth: false, body: { name, email, password } }),
  verify: (email: string, code: string) => apiRequest<unknown>('POST', '/auth/verify', { auth: false, body: { email, code } }),
  forgotPassword: (email: string) => apiRequest<unknown>('POST', '/auth/forgot-password', { auth: false, body: { email } }),
  resetPassword: (email: string, code: string, newPassword: string) =>
    apiRequest<unknown>('POST', '/auth/reset-password', { auth: false, body: { email, code, new_password: newPassword } }),
  resendCode: (email: string) => apiRequest<unknown>('POST', '/auth/resend-code', { auth: false, body: { email } }),
  socialLogin: (code: string, state: string | null) =>
    apiRequest<TokenResponse>('POST', '/auth/social-login', { auth: false, body: { code, state } }),
  logout: (refreshToken: string | null) =>
    apiRequest<unknown>('POST', '/auth/logout', { auth: false, body: refreshToken ? { refresh_token: refreshToken } : {} }),
  ping: (signal?: AbortSignal) => apiRequest<{ message: string }>('GET', '/ping', { auth: false, signal }),
  /**
   * Whether mail to `email` waits in the development server's outbox instead
   * of being sent. The outbox exists only outside production and answers only
   * callers on the server's own machine; anywhere else this is false.
   */
  mailInDevOutbox: async (email: string): Promise<boolean> => {
    try {
      const outbox = await apiRequest<Array<{ to: string }>>('GET', '/dev/outbox', { auth: false });
      return Array.isArray(outbox) && outbox.some((mail) => mail.to.toLowerCase() === email.toLowerCase());
    } catch {
      return false;
    }
  },
};

/** Where a development server keeps the mail it does not send (JSON, newest first). */
export function devOutboxUrl(): string {
  return `${apiBase()}/dev/outbox`;
}

/** Where the browser starts a social sign-in or sign-up (the server redirects to the provider). */
export function socialAuthorizeUrl(base: string, intent: 'login' | 'signup'): string {
  return `${base}/auth/social/authorize?provider=google&intent=${intent}`;
}
