import { fakeJwt } from '../test-support/fake-api';
import { displayNameOf, isIdTokenExpired } from './id-token';

describe('ID token', () => {
  it('shows the name claim, else the email claim, else User', () => {
    expect(displayNameOf(fakeJwt({ name: 'Ada Lovelace', email: 'ada@example.com' }))).toBe('Ada Lovelace');
    expect(displayNameOf(fakeJwt({ email: 'ada@example.com' }))).toBe('ada@example.com');
    expect(displayNameOf(fakeJwt({}))).toBe('User');
    expect(displayNameOf('not a token')).toBe('User');
    expect(displayNameOf(null)).toBe('User');
  });

  it('is expired when missing, unreadable, without exp or past exp', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(isIdTokenExpired(null, now)).toBe(true);
    expect(isIdTokenExpired('garbage', now)).toBe(true);
    expect(isIdTokenExpired(fakeJwt({ name: 'x' }), now)).toBe(true);
    expect(isIdTokenExpired(fakeJwt({ exp: now / 1000 - 1 }), now)).toBe(true);
    expect(isIdTokenExpired(fakeJwt({ exp: now / 1000 + 60 }), now)).toBe(false);
  });
});
