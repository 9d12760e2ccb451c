import type { BrowserContext } from 'playwright-core';

/** An unsigned JWT with the given claims: enough for the app's expiry check, which never verifies. */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(claims)}.signature`;
}

/** Puts a session into the browser's cookies as the app itself stores it. */
export async function setSessionCookies(context: BrowserContext, baseUrl: string, tokens: { accessToken: string; idToken: string }) {
  await context.addCookies([
    { name: 'accessToken', value: tokens.accessToken, url: baseUrl, sameSite: 'Lax' },
    { name: 'idToken', value: tokens.idToken, url: baseUrl, sameSite: 'Lax' },
  ]);
}
