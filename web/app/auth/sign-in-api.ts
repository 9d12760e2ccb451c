import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import type { ChallengeName, SignInResponse } from '@cronbeam/shared/auth/mfa-schemas';
import { apiRequest, isTransient } from '../api/api-client';
import { ApiRequestError } from '../api/api-error';
import { withRetry } from '../api/retry';

/**
 * Remembered-device keys, one per account on this browser or desktop window
 * (the identity session's "device key data"). The server keeps only a hash.
 */
export const deviceKeys = {
  key: (email: string) => `cronbeam.deviceKey.${email.trim().toLowerCase()}`,
  get(email: string): string | undefined {
    try {
      return localStorage.getItem(this.key(email)) ?? undefined;
    } catch {
      return undefined;
    }
  },
  set(email: string, deviceKey: string): void {
    try {
      localStorage.setItem(this.key(email), deviceKey);
    } catch {
      // Without storage the device is simply not remembered.
    }
  },
  drop(email: string): void {
    try {
      localStorage.removeItem(this.key(email));
    } catch {
      // Nothing stored, nothing to drop.
    }
  },
};

const post = (path: string, body: unknown) =>
  withRetry(() => apiRequest<SignInResponse>('POST', path, { auth: false, body }), { shouldRetry: isTransient });

/**
 * The password step. With a remembered device the key goes along; when the
 * server no longer knows it ('Device does not exist.'), the stored device
 * data is dropped and the sign-in runs again without it, which then asks for
 * the code.
 */
export async function signInWithPassword(email: string, password: string): Promise<SignInResponse> {
  const deviceKey = deviceKeys.get(email);
  try {
    return await post('/auth/login', { email, password, ...(deviceKey ? { device_key: deviceKey } : {}) });
  } catch (error) {
    if (!deviceKey || !(error instanceof ApiRequestError && error.status === 404 && error.detail === AUTH_MESSAGES.deviceNotFound)) throw error;
    deviceKeys.drop(email);
    return post('/auth/login', { email, password });
  }
}

/** The /auth/callback exchange: the session, or the code challenge of an account with two-factor on. */
export function socialSignIn(code: string, state: string | null): Promise<SignInResponse> {
  return apiRequest<SignInResponse>('POST', '/auth/social-login', { auth: false, body: { code, state } });
}

export interface ChallengeAnswer {
  email: string;
  challenge: ChallengeName;
  session: string;
  code?: string;
  recovery_code?: string;
  new_password?: string;
  remember_device?: boolean;
  device_name?: string;
}

/** Not retried: a session is single-use, so a second send of a right answer would be refused. */
export async function answerChallenge(answer: ChallengeAnswer): Promise<SignInResponse> {
  const response = await apiRequest<SignInResponse>('POST', '/auth/challenge', { auth: false, body: answer });
  const deviceKey = (response as TokenResponse).device_key;
  if (deviceKey) deviceKeys.set(answer.email, deviceKey);
  return response;
}

/** A name for this device in the list of remembered devices ("Chrome on Linux"). */
export function thisDeviceName(userAgent: string = navigator.userAgent): string {
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Electron\//.test(userAgent)
      ? 'Cronbeam desktop'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrome\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : 'Browser';
  const os = /Windows/.test(userAgent)
    ? 'Windows'
    : /Mac OS X/.test(userAgent)
      ? 'macOS'
      : /Android/.test(userAgent)
        ? 'Android'
        : /iPhone|iPad/.test(userAgent)
          ? 'iOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : 'an unknown system';
  return `${browser} on ${os}`;
}
