import type { HttpClient } from './http-client';
import { until } from './until';

/**
 * Waits until a session's sign-in is too old for the operations that need a
 * recent one, by polling a harmless one of them (a pending authenticator
 * secret) until it answers 403.
 */
export async function waitUntilSignInStale(http: HttpClient, token: string, maxAgeSeconds: number): Promise<void> {
  await until(
    () => http.post('/api/auth/mfa/totp/setup', undefined, { token }).then((res) => res.status),
    (status) => status === 403,
    (maxAgeSeconds + 10) * 1000,
  );
}
