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
    ['GET /ping/Q2xvY2tzIHRpY2sgYW5kIGJlYXQ/fail 200', 'Q2xvY2tzIHRpY2sgYW5kIGJlYXQ'],
    ['ping_url https://cronbeam.example/ping/tok_en-123456', 'tok_en-123456'],
    ['redirect to https://x.example/cb?access_token=abc123&y=1', 'abc123'],
    ['{"a":"b", "client_secret" : "s3 cr\\"et"}', 's3 cr'],
  ])('removes the secret from %p', (input, secret) => {
    const out = scrubText(input);
    expect(out).not.toContain(secret);
    expect(out).toContain(REDACTED);
  });

  it('leaves ordinary text alone', () => {
    expect(scrubText('GET /api/jobs 200 in 12 ms')).toBe('GET /api/jobs 200 in 12 ms');
    expect(scrubText('GET /api/ping and /prog/ping/')).toBe('GET /api/ping and /prog/ping/');
    expect(scrubText('{"name":"nightly","url":"https://a.example/x?page=2"}')).toBe('{"name":"nightly","url":"https://a.example/x?page=2"}');
  });

  // Log text includes what clients send: a 16 KB request line of repeated names once took minutes here.
  it.each([
    ['repeated names', '/x?' + 'codecode-'.repeat(1_800)],
    ['names without a value', '/x?' + 'token-'.repeat(2_700)],
    ['separators without a value', 'token=' + ' '.repeat(16_000) + '&'],
    ['unterminated JSON strings', '{"token":"' + '\\"token\\":\\"'.repeat(1_300)],
    ['almost-JWTs', 'eyJ-'.repeat(4_000)],
    ['almost-user-info', 'a://b:c'.repeat(2_300)],
    ['slashes', '/'.repeat(16_000) + 'x'],
  ])('scrubs 16 KB of %s in linear time', (_shape, hostile) => {
    const started = performance.now();
    scrubText(hostile);
    scrubText(hostile + hostile);
    // Linear: tens of microseconds per kilobyte; the bound is generous for a loaded machine, the old patterns took seconds.
    expect(performance.now() - started).toBeLessThan(250);
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
