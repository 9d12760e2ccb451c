import type { SessionKey, SessionStorage } from './session-storage';

/** Cookie defaults: path /, secure, SameSite Lax, 30 days, the parent domain (so site and app share the session) except on localhost. */
export const COOKIE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export interface CookieEnvironment {
  hostname: string;
  protocol: string;
}

/**
 * The parent domain the cookies are shared on (app.example.com → example.com)
 * so the marketing host can see the session; none on localhost or an IP.
 */
export function cookieDomainFor(hostname: string): string | null {
  if (hostname === 'localhost' || hostname.endsWith('.localhost') || /^[\d.]+$/.test(hostname) || hostname.includes(':')) {
    return null;
  }
  const labels = hostname.split('.');
  return labels.length > 2 ? labels.slice(-2).join('.') : hostname;
}

/** The attribute string of a cookie write; `secure` only over HTTPS, where browsers accept it. */
export function cookieAttributes(env: CookieEnvironment, maxAgeSeconds: number): string {
  const parts = ['path=/', `max-age=${maxAgeSeconds}`, 'SameSite=Lax'];
  const domain = cookieDomainFor(env.hostname);
  if (domain) parts.push(`domain=${domain}`);
  if (env.protocol === 'https:') parts.push('secure');
  return parts.join('; ');
}

/** Session values in browser cookies, readable by every page of the site. */
export class CookieSessionStorage implements SessionStorage {
  constructor(
    private readonly doc: Document = document,
    private readonly env: CookieEnvironment = window.location,
  ) {}

  get(key: SessionKey): string | null {
    for (const pair of this.doc.cookie.split(';')) {
      const [name, ...rest] = pair.trim().split('=');
      if (name === key) return decodeURIComponent(rest.join('='));
    }
    return null;
  }

  set(key: SessionKey, value: string): void {
    this.doc.cookie = `${key}=${encodeURIComponent(value)}; ${cookieAttributes(this.env, COOKIE_MAX_AGE_SECONDS)}`;
  }

  remove(key: SessionKey): void {
    this.doc.cookie = `${key}=; ${cookieAttributes(this.env, 0)}`;
  }
}
