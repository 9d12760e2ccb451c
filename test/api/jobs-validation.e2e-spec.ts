import fc from 'fast-check';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startProductionServerWithUser } from '../support/production-server';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(120_000);

type Issue = { loc: Array<string | number>; msg: string; type: string };

describe('job validation (422 naming each field, spec messages)', () => {
  let server: TestServer;
  let user: SignedInAccount;
  let existingJobId: string;
  let apiKey: string;

  const post = (body: unknown) => server.http.post<{ detail: Issue[] }>('/api/jobs', body, { token: user.accessToken });
  const put = (body: unknown) => server.http.put<{ detail: Issue[] }>(`/api/jobs/${existingJobId}`, body, { token: user.accessToken });
  /** The same rules on the public API. */
  const progPost = (body: unknown) => server.http.post<{ detail: Issue[] }>('/prog/jobs', body, { token: apiKey });
  const progPut = (body: unknown) => server.http.put<{ detail: Issue[] }>(`/prog/jobs/${existingJobId}`, body, { token: apiKey });

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PROG_RATE_LIMIT: '100000' });
    user = await signUpAndLogin(server);
    await setPlan(server, user.userId, 'unlimited');
    const existing = await server.http.post<{ job_id: string }>('/api/jobs', jobDefinition({ name: 'existing' }), { token: user.accessToken });
    existingJobId = existing.body.job_id;
    apiKey = (await server.http.post('/api/api-keys/generate', { name: 'validation' }, { token: user.accessToken })).body.api_key;
  });

  afterAll(async () => {
    await server?.close();
  });

  const cases: Array<[string, Record<string, unknown>, Array<string | number>, string]> = [
    ['missing name', { name: undefined }, ['body', 'name'], 'Name is required'],
    ['empty name', { name: '' }, ['body', 'name'], 'Name is required'],
    ['blank name', { name: '   ' }, ['body', 'name'], 'Name is required'],
    ['name with a space', { name: 'my job' }, ['body', 'name'], 'Name can only contain letters, numbers, hyphens (-), and underscores (_)'],
    ['name with @', { name: 'job@home' }, ['body', 'name'], 'Name can only contain letters, numbers, hyphens (-), and underscores (_)'],
    ['name with a period', { name: 'job.v2' }, ['body', 'name'], 'Name can only contain letters, numbers, hyphens (-), and underscores (_)'],
    ['name of 51 characters', { name: 'a'.repeat(51) }, ['body', 'name'], 'Name must be at most 50 characters'],
    ['name not a string', { name: 42 }, ['body', 'name'], 'Name is required'],
    ['missing url', { url: undefined }, ['body', 'url'], 'URL is required'],
    ['empty url', { url: ' ' }, ['body', 'url'], 'URL is required'],
    ['unparseable url', { url: 'not a url' }, ['body', 'url'], 'Please enter a valid URL'],
    ['relative url', { url: '/hooks/backup' }, ['body', 'url'], 'Please enter a valid URL'],
    ['ftp url', { url: 'ftp://example.com/file' }, ['body', 'url'], 'URL must start with http:// or https://'],
    ['javascript url', { url: 'javascript:alert(1)' }, ['body', 'url'], 'URL must start with http:// or https://'],
    ['url over 2048 characters', { url: `https://example.com/${'a'.repeat(2030)}` }, ['body', 'url'], 'URL must be at most 2048 characters'],
    ['unknown method', { method: 'FETCH' }, ['body', 'method'], 'Method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'],
    ['method not a string', { method: 1 }, ['body', 'method'], 'Method must be one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'],
    ['headers as an array', { headers: [['a', 'b']] }, ['body', 'headers'], 'Headers must be an object of header names to text values'],
    ['headers as a string', { headers: 'X-A: b' }, ['body', 'headers'], 'Headers must be an object of header names to text values'],
    ['header with a non-string value', { headers: { 'X-Count': 3 } }, ['body', 'headers', 'X-Count'], "Header 'X-Count' must have a text value of at most 8192 characters without line breaks"],
    ['header value with a line break', { headers: { 'X-A': 'b\r\nInjected: yes' } }, ['body', 'headers', 'X-A'], "Header 'X-A' must have a text value of at most 8192 characters without line breaks"],
    ['header name with a space', { headers: { 'X A': 'b' } }, ['body', 'headers', 'X A'], "'X A' is not a valid HTTP header name"],
    ['header name with a colon', { headers: { 'X:A': 'b' } }, ['body', 'headers', 'X:A'], "'X:A' is not a valid HTTP header name"],
    ['hop-by-hop Connection header', { headers: { Connection: 'close' } }, ['body', 'headers', 'Connection'], "Header 'Connection' is managed by the connection and cannot be set"],
    ['Transfer-Encoding header', { headers: { 'transfer-encoding': 'chunked' } }, ['body', 'headers', 'transfer-encoding'], "Header 'transfer-encoding' is managed by the connection and cannot be set"],
    ['Host header', { headers: { Host: 'internal' } }, ['body', 'headers', 'Host'], "Header 'Host' is managed by the connection and cannot be set"],
    ['51 headers', { headers: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v'])) }, ['body', 'headers'], 'At most 50 headers are allowed'],
    ['body as a number', { body: 5 }, ['body', 'body'], 'Body must be text (or a JSON object, sent as its JSON text)'],
    ['body over 64 KiB', { body: 'x'.repeat(64 * 1024 + 1) }, ['body', 'body'], 'Body must be at most 64 KiB'],
    ['body over 64 KiB in UTF-8 bytes', { body: 'é'.repeat(32 * 1024 + 1) }, ['body', 'body'], 'Body must be at most 64 KiB'],
    ['missing cron', { cron_expression: undefined }, ['body', 'cron_expression'], 'Cron expression is required'],
    ['blank cron', { cron_expression: '  ' }, ['body', 'cron_expression'], 'Cron expression is required'],
    ['four fields', { cron_expression: '* * * *' }, ['body', 'cron_expression'], 'Cron expression must have 5 fields, or 6 with seconds first'],
    ['seven fields', { cron_expression: '0 0 * * * * *' }, ['body', 'cron_expression'], 'Cron expression must have 5 fields, or 6 with seconds first'],
    ['a second out of range', { cron_expression: '60 * * * * *' }, ['body', 'cron_expression'], 'Second must be between 0 and 59'],
    ['minute 60', { cron_expression: '60 * * * *' }, ['body', 'cron_expression'], 'Minute must be between 0 and 59'],
    ['hour 24', { cron_expression: '0 24 * * *' }, ['body', 'cron_expression'], 'Hour must be between 0 and 23'],
    ['day of month 0', { cron_expression: '0 0 0 * *' }, ['body', 'cron_expression'], 'Day of month must be between 1 and 31'],
    ['day of month 32', { cron_expression: '0 0 32 * *' }, ['body', 'cron_expression'], 'Day of month must be between 1 and 31'],
    ['month 13', { cron_expression: '0 0 1 13 *' }, ['body', 'cron_expression'], 'Month must be between 1 and 12'],
    ['day of week 7', { cron_expression: '0 0 * * 7' }, ['body', 'cron_expression'], 'Day of week must be between 0 and 6'],
    ['cron with letters', { cron_expression: 'every day' }, ['body', 'cron_expression'], 'Cron expression must have 5 fields, or 6 with seconds first'],
    ['cron with a bad token', { cron_expression: '*/x * * * *' }, ['body', 'cron_expression'], 'Minute step must be a whole number from 1 to 60'],
    ['cron never firing', { cron_expression: '0 0 30 2 *' }, ['body', 'cron_expression'], 'Cron expression never runs: no selected month has that day'],
    ['notify_on_failure as text', { notify_on_failure: 'yes' }, ['body', 'notify_on_failure'], 'notify_on_failure must be true or false'],
    ['an unknown field', { schedule: 'daily' }, ['body', 'schedule'], 'Unknown field'],
    ['a misspelt field', { cron: '* * * * *' }, ['body', 'cron'], 'Unknown field'],
  ];

  it.each(cases)('refuses %s on create and on update, on both APIs', async (_label, overrides, loc, msg) => {
    const body: Record<string, unknown> = { ...jobDefinition(), ...overrides };
    for (const [k, v] of Object.entries(overrides)) if (v === undefined) delete body[k];
    for (const res of [await post(body), await put(body), await progPost(body), await progPut(body)]) {
      expect(res.status).toBe(422);
      expect(res.body.detail).toContainEqual(expect.objectContaining({ loc, msg }));
    }
  });

  it('names every bad field at once', async () => {
    const res = await post({ name: 'a b', url: 'nope', cron_expression: '* *', extra: 1 });
    expect(res.status).toBe(422);
    expect(res.body.detail.map((i) => i.loc.join('.')).sort()).toEqual(['body.cron_expression', 'body.extra', 'body.name', 'body.url']);
  });

  it('refuses a JSON body that is not an object', async () => {
    const array = await post('[1,2]');
    expect(array.status).toBe(422);
    expect(array.body.detail).toEqual([expect.objectContaining({ loc: ['body'], msg: 'Request body must be a JSON object' })]);
    // The JSON parser is strict: top-level scalars are not JSON documents it accepts.
    for (const raw of ['null', '"job"', '42']) {
      const res = await post(raw);
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body'] })]);
    }
  });

  it('answers 422 for malformed JSON and 413 for a body over the size limit', async () => {
    const malformed = await post('{"name": ');
    expect(malformed.status).toBe(422);
    const huge = await post({ ...jobDefinition(), body: 'x'.repeat(300 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ detail: 'Request body is too large' });
  });

  it('accepts the edges: 50-character names, every method in any case, 50 headers, 64 KiB bodies, JSON object bodies, names in cron', async () => {
    const res = await post({
      name: `A-_${'z'.repeat(47)}`,
      url: `http://example.com/${'a'.repeat(2048 - 'http://example.com/'.length)}`,
      method: 'patch',
      headers: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`X-H${i}`, 'v'])),
      body: 'x'.repeat(64 * 1024),
      cron_expression: '  30  14 * JAN-MAR  sun ',
      notify_on_failure: true,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ method: 'PATCH', cron_expression: '30 14 * JAN-MAR sun', notify_on_failure: true });
    for (const method of ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']) {
      expect((await post(jobDefinition({ method }))).body).toMatchObject({ method });
    }
    const json = await server.http.post('/api/jobs', jobDefinition({ body: { hello: 'world' } }), { token: user.accessToken });
    expect(json.body.body).toBe('{"hello":"world"}');
  });

  it('allows literal private and loopback targets outside production', async () => {
    for (const url of ['http://127.0.0.1:8080/x', 'http://localhost/x', 'http://10.0.0.5/x', 'http://[::1]/x']) {
      expect((await post(jobDefinition({ url }))).status).toBe(200);
    }
  });

  it('never answers 500 to random junk on create and update (property)', async () => {
    const fieldValue = fc.oneof(
      fc.string(),
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(fc.string(), { maxLength: 3 }),
      fc.dictionary(fc.string({ maxLength: 10 }), fc.oneof(fc.string(), fc.integer(), fc.constant(null)), { maxKeys: 4 }),
      fc.constantFrom('* * * * *', '0 9 * * MON-FRI', '61 * * * *', '*/0 * * * *', 'https://example.com', 'GET', 'ok-name'),
    );
    const definition = fc.record(
      {
        name: fieldValue,
        url: fc.oneof(fieldValue, fc.webUrl()),
        method: fieldValue,
        headers: fieldValue,
        body: fieldValue,
        cron_expression: fieldValue,
        notify_on_failure: fieldValue,
      },
      { requiredKeys: [] },
    );
    const junk = fc.oneof(definition, fc.dictionary(fc.string({ maxLength: 12 }), fieldValue, { maxKeys: 6 }), fc.anything(), fc.string());
    await fc.assert(
      fc.asyncProperty(junk, fc.constantFrom(post, put, progPost, progPut), async (payload, send) => {
        const raw = typeof payload === 'string' ? payload : JSON.stringify(payload ?? null);
        const res = await send(raw);
        expect(res.status).not.toBeGreaterThanOrEqual(500);
        expect([200, 403, 413, 422]).toContain(res.status);
      }),
      { numRuns: 200 },
    );
  });
});

describe('job URLs in production', () => {
  let server: TestServer;
  let user: SignedInAccount;

  beforeAll(async () => {
    ({ server, user } = await startProductionServerWithUser({ PUBLIC_URL: 'http://cronbeam.test' }));
  });

  afterAll(async () => {
    await server?.close();
  });

  it.each(['http://127.0.0.1/x', 'http://localhost:3000/x', 'http://api.localhost/x', 'http://10.1.2.3/x', 'http://192.168.1.1/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://[fd00::1]/x'])(
    'refuses the literal private or loopback target %s',
    async (url) => {
      const res = await server.http.post('/api/jobs', jobDefinition({ url }), { token: user.accessToken });
      expect(res.status).toBe(422);
      expect(res.body.detail).toEqual([{ loc: ['body', 'url'], msg: 'URL must not point to a private, loopback or link-local address', type: 'value_error' }]);
    },
  );

  it('accepts public targets', async () => {
    expect((await server.http.post('/api/jobs', jobDefinition({ url: 'https://93.184.215.14/x' }), { token: user.accessToken })).status).toBe(200);
  });
});
