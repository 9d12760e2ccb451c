import { REDACTED, scrubText, scrubValue } from './secret-scrubber';

describe('secret scrubber', () => {
  it.each([
    ['password=hunter2 next', 'hunter2'],
    ['{"password":"p@ss w0rd"}', 'p@ss w0rd'],
    ['token: abc.def.ghi', 'abc.def.ghi'],
    ['Authorization: Bearer abcdefghijkl', 'abcdefghijkl'],
    ['url /x?api_key=k123456&y=1', 'k123456'],
    ['postgres://user:pw-secret@host/db', 'pw-secret'],
    ['id eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxIn0.sig-here', 'eyJzdWIiOiIxIn0'],
    ['key cb_live_1234567890abcdef used', 'cb_live_1234567890abcdef'],
    ['client_secret=shhh', 'shhh'],
  ])('removes the secret from %p', (input, secret) => {
    const out = scrubText(input);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it('leaves ordinary text alone', () => {
    expect(scrubText('GET /api/jobs 200 in 12 ms')).toBe('GET /api/jobs 200 in 12 ms');
  });

  it('redacts sensitive keys at any depth and keeps the rest', () => {
    const out = scrubValue({
      user: 'a@b.c',
      nested: { refreshToken: 'r1', list: [{ apiKey: 'k' }], headers: { authorization: 'Bearer x', cookie: 'c=1' } },
      err: new Error('login failed for password=abc'),
    }) as any;
    expect(out.user).toBe('a@b.c');
    expect(out.nested.refreshToken).toBe(REDACTED);
    expect(out.nested.list[0].apiKey).toBe(REDACTED);
    expect(out.nested.headers.authorization).toBe(REDACTED);
    expect(out.nested.headers.cookie).toBe(REDACTED);
    expect(out.err.message).not.toContain('abc');
  });
});
