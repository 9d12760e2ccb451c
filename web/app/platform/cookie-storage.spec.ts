import { COOKIE_MAX_AGE_SECONDS, CookieSessionStorage, cookieAttributes, cookieDomainFor } from './cookie-storage';

describe('cookie session storage', () => {
  it('uses the spec defaults: path /, SameSite Lax, 30 days, secure over HTTPS, parent domain', () => {
    expect(COOKIE_MAX_AGE_SECONDS).toBe(2_592_000);
    expect(cookieAttributes({ hostname: 'app.cronbeam.io', protocol: 'https:' }, COOKIE_MAX_AGE_SECONDS)).toBe(
      'path=/; max-age=2592000; SameSite=Lax; domain=cronbeam.io; secure',
    );
  });

  it('sets no domain on localhost or an IP address', () => {
    expect(cookieDomainFor('localhost')).toBeNull();
    expect(cookieDomainFor('127.0.0.1')).toBeNull();
    expect(cookieDomainFor('dev.cronbeam.io')).toBe('cronbeam.io');
  });

  it('stores, reads and removes values in document.cookie', () => {
    const storage = new CookieSessionStorage(document, { hostname: 'localhost', protocol: 'http:' });
    storage.set('verificationEmail', 'ada@example.com');
    expect(storage.get('verificationEmail')).toBe('ada@example.com');
    storage.remove('verificationEmail');
    expect(storage.get('verificationEmail')).toBeNull();
  });
});
