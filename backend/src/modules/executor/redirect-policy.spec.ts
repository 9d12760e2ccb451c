import { followRedirect } from './redirect-policy';

const from = (url: string) => new URL(url);

describe('followRedirect', () => {
  it('never follows HTTPS down to plain HTTP, on the same host or another', () => {
    for (const location of ['http://api.example.com/next', 'http://other.example.net/x', 'http://api.example.com:443/next']) {
      const step = followRedirect(from('https://api.example.com/start'), location, 302, 'GET', false);
      expect(step).toEqual({ refusal: `Redirect refused: the target answered 302 from HTTPS to unencrypted HTTP (${new URL(location).origin})` });
    }
    // A relative location stays on HTTPS.
    expect(followRedirect(from('https://api.example.com/start'), '/next', 301, 'GET', false)).toMatchObject({ url: new URL('https://api.example.com/next'), keepsJobHeaders: true });
  });

  it("keeps the job's headers on the same origin, and on the HTTPS upgrade of the same host on the default ports", () => {
    expect(followRedirect(from('https://api.example.com/a'), 'https://api.example.com/b', 302, 'GET', false)).toMatchObject({ keepsJobHeaders: true });
    expect(followRedirect(from('http://api.example.com/a'), 'https://api.example.com/a', 301, 'GET', false)).toMatchObject({ keepsJobHeaders: true });
    expect(followRedirect(from('http://api.example.com/a'), 'https://api.example.com/a', 308, 'POST', true)).toMatchObject({ keepsJobHeaders: true, dropsBody: false, method: 'POST' });
  });

  it.each([
    ['another host', 'https://api.example.com/a', 'https://evil.example.net/a'],
    ['a subdomain', 'https://example.com/a', 'https://api.example.com/a'],
    ['another port', 'https://api.example.com/a', 'https://api.example.com:8443/a'],
    ['an upgrade to another port', 'http://api.example.com/a', 'https://api.example.com:8443/a'],
    ['an upgrade from a non-default port', 'http://api.example.com:8080/a', 'https://api.example.com/a'],
  ])("leaves the job's headers behind on %s", (_case, start, location) => {
    expect(followRedirect(from(start), location, 302, 'GET', false)).toMatchObject({ url: new URL(location), keepsJobHeaders: false });
  });

  it('refuses a 307 or 308 that would resend the body to another origin, and follows one without a body', () => {
    for (const status of [307, 308]) {
      expect(followRedirect(from('https://api.example.com/a'), 'https://evil.example.net/b', status, 'POST', true)).toEqual({
        refusal: `Redirect refused: the target answered ${status} to another origin (https://evil.example.net), which would resend the request body there`,
      });
      expect(followRedirect(from('https://api.example.com/a'), 'https://evil.example.net/b', status, 'DELETE', false)).toMatchObject({ method: 'DELETE', dropsBody: false, keepsJobHeaders: false });
      expect(followRedirect(from('https://api.example.com/a'), '/b', status, 'POST', true)).toMatchObject({ method: 'POST', dropsBody: false, keepsJobHeaders: true });
    }
  });

  it('turns 303, and 301/302 for anything but HEAD, into a GET without a body, which may then go to another origin', () => {
    expect(followRedirect(from('https://a.example.com/'), 'https://b.example.com/', 303, 'POST', true)).toMatchObject({ method: 'GET', dropsBody: true, keepsJobHeaders: false });
    expect(followRedirect(from('https://a.example.com/'), '/x', 302, 'PUT', true)).toMatchObject({ method: 'GET', dropsBody: true });
    expect(followRedirect(from('https://a.example.com/'), '/x', 301, 'HEAD', false)).toMatchObject({ method: 'HEAD', dropsBody: false });
    expect(followRedirect(from('https://a.example.com/'), '/x', 303, 'HEAD', false)).toMatchObject({ method: 'HEAD', dropsBody: true });
  });

  it('refuses locations that are not http(s) URLs', () => {
    expect(followRedirect(from('https://a.example.com/'), 'ftp://a.example.com/x', 302, 'GET', false)).toEqual({ refusal: 'Redirect to an unsupported URL (ftp:)' });
    expect(followRedirect(from('https://a.example.com/'), 'http://[bad', 302, 'GET', false)).toEqual({ refusal: 'Redirect to an unsupported URL (http://[bad)' });
  });
});
