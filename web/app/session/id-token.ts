import type { IdTokenClaims as IssuedClaims } from '@cronbeam/shared/auth/auth-schemas';

/** The ID token claims the app reads; any may be missing from a token it did not expect. */
export type IdTokenClaims = Partial<Pick<IssuedClaims, 'sub' | 'email' | 'name' | 'exp'>>;

/** Reads a JWT's claims without verifying it (the server verifies; the app only needs name and expiry). */
export function readClaims(token: string | null): IdTokenClaims | null {
  const payload = token?.split('.')[1];
  if (!payload) return null;
  try {
    const base64 = payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '=');
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims: unknown = JSON.parse(new TextDecoder().decode(bytes));
    return claims && typeof claims === 'object' ? (claims as IdTokenClaims) : null;
  } catch {
    return null;
  }
}

/** True when the token is missing, unreadable, has no expiry, or has expired. */
export function isIdTokenExpired(token: string | null, nowMs: number = Date.now()): boolean {
  const exp = readClaims(token)?.exp;
  return typeof exp !== 'number' || exp * 1000 <= nowMs;
}

/** The name shown in the user menu: the name claim, else the email claim, else 'User'. */
export function displayNameOf(token: string | null): string {
  const claims = readClaims(token);
  return claims?.name?.trim() || claims?.email?.trim() || 'User';
}
