import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, TEST_ADMIN_TOKEN } from './jobs-fixtures';
import { DEFAULT_RETRY_POLICY } from '@cronbeam/shared/jobs/retry-policy';

jest.setTimeout(60_000);

type Item = { source: number; name: string | null; action: 'create' | 'refuse'; reason: string | null; job_id: string | null; definition: Record<string, unknown> | null };

describe('clone, export and import of jobs', () => {
  let server: TestServer;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  let carol: SignedInAccount;

  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  const names = async (who: SignedInAccount) => ((await server.http.get('/api/jobs', as(who))).body as Array<{ name: string }>).map((j) => j.name);

  beforeAll(async () => {
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN });
    [alice, bob, carol] = await Promise.all([signUpAndLogin(server), signUpAndLogin(server), signUpAndLogin(server)]);
    await setPlan(server, alice.userId, 'pro');
    await setPlan(server, bob.userId, 'pro');
  });

  afterAll(async () => {
    await server?.close();
  });

  it('clones a job with its whole definition under "<name>-copy", then -copy-2, or a given name', async () => {
    const original = (
      await server.http.post(
        '/api/jobs',
        jobDefinition({ name: 'report', method: 'POST', headers: { 'X-Token': 'abc' }, body: '{"a":1}', cron_expression: '0 9 * * 1-5', time_zone: 'Europe/Berlin', notify_on_failure: true }),
        as(alice),
      )
    ).body;
    const copy = await server.http.post(`/api/jobs/${original.job_id}/clone`, undefined, as(alice));
    expect(copy.status).toBe(200);
    expect(copy.body.job_id).not.toBe(original.job_id);
    const same = ['url', 'method', 'headers', 'body', 'cron_expression', 'time_zone', 'response_rules', 'timeout_seconds', 'auto_pause_after', 'notify_on_failure', 'next_run_at'];
    for (const field of same) expect({ field, value: copy.body[field] }).toEqual({ field, value: original[field] });
    expect(copy.body).toMatchObject({ name: 'report-copy', status: 'pending', last_run_at: null });
    expect((await server.http.post(`/api/jobs/${original.job_id}/clone`, {}, as(alice))).body.name).toBe('report-copy-2');
    const named = await server.http.post(`/api/jobs/${original.job_id}/clone`, { name: 'report-eu' }, as(alice));
    expect(named.body.name).toBe('report-eu');
  });

  it('refuses a bad or taken clone name (422 naming it), someone else’s job (404), and counts the plan’s job limit (403)', async () => {
    const job = (await server.http.post('/api/jobs', jobDefinition({ name: 'limited' }), as(carol))).body;
    const bad = await server.http.post(`/api/jobs/${job.job_id}/clone`, { name: 'no spaces' }, as(carol));
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'name']);
    const taken = await server.http.post(`/api/jobs/${job.job_id}/clone`, { name: 'LIMITED' }, as(carol));
    expect(taken.status).toBe(422);
    expect(taken.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'name'], msg: 'A job with this name already exists' })]);
    expect((await server.http.post(`/api/jobs/${job.job_id}/clone`, { surprise: 1 }, as(carol))).status).toBe(422);
    expect((await server.http.post(`/api/jobs/${job.job_id}/clone`, undefined, as(bob))).status).toBe(404);
    // Free plan: 2 jobs.
    expect((await server.http.post(`/api/jobs/${job.job_id}/clone`, undefined, as(carol))).status).toBe(200);
    const over = await server.http.post(`/api/jobs/${job.job_id}/clone`, undefined, as(carol));
    expect(over.status).toBe(403);
    expect(over.body.detail).toMatchObject({ error: 'Job limit exceeded', max_jobs: 2 });
  });

  it('exports every job of the caller only, and the export imports into another account unchanged', async () => {
    const exported = await server.http.get('/api/jobs/export', as(alice));
    expect(exported.status).toBe(200);
    expect(exported.body).toMatchObject({ format: 'cronbeam-jobs', version: 1 });
    expect(exported.body.jobs.map((j: { name: string }) => j.name)).toEqual(await names(alice));
    expect(exported.body.jobs[0]).toEqual({
      name: 'report',
      url: 'https://example.com/hook',
      method: 'POST',
      headers: { 'X-Token': 'abc' },
      body: '{"a":1}',
      cron_expression: '0 9 * * 1-5',
      time_zone: 'Europe/Berlin',
      every_seconds: null,
      run_at: null,
      starts_at: null,
      ends_at: null,
      jitter_seconds: 0,
      overlap: 'allow',
      catch_up: 'latest',
      catch_up_window_seconds: null,
      response_rules: null,
      timeout_seconds: null,
      auto_pause_after: null,
      alert_after_failures: 1,
      certificate_alert_days: 14,
      delivery: 'at_least_once',
      tags: [],
      retry: DEFAULT_RETRY_POLICY,
      identity_token: null,
      callback_url: null,
      notify_on_failure: true,
    });

    const content = JSON.stringify(exported.body);
    const preview = await server.http.post('/api/jobs/import', { format: 'json', content, dry_run: true }, as(bob));
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ dry_run: true, created: exported.body.jobs.length, refused: 0 });
    expect(await names(bob)).toEqual([]);

    const done = await server.http.post('/api/jobs/import', { format: 'json', content }, as(bob));
    expect(done.body).toMatchObject({ dry_run: false, created: exported.body.jobs.length, refused: 0 });
    expect(done.body.items.every((i: Item) => typeof i.job_id === 'string')).toBe(true);
    const reexported = (await server.http.get('/api/jobs/export', as(bob))).body;
    expect(reexported.jobs).toEqual(exported.body.jobs);

    // Importing the same file again: every name is taken, nothing is created.
    const again = await server.http.post('/api/jobs/import', { format: 'json', content }, as(bob));
    expect(again.body.created).toBe(0);
    expect(again.body.items.map((i: Item) => i.reason)).toEqual(exported.body.jobs.map(() => 'name: A job with this name already exists'));
  });

  it('previews a crontab: URL commands become jobs (method, headers, body, CRON_TZ, shortcuts), everything else is refused with its reason', async () => {
    const crontab = [
      '# backups',
      'MAILTO=ops@example.com',
      '*/15 * * * * curl -fsS https://example.com/tick > /dev/null',
      'CRON_TZ=America/New_York',
      "0 2 * * 1-5 curl -X POST -H 'Authorization: Bearer t0k' -d '{\"full\":true}' https://example.com/hooks/backup",
      '@daily wget -q -O- https://example.com/tick',
      '@reboot /usr/local/bin/warm-cache',
      '5 4 * * * /usr/local/bin/rotate-logs',
      '61 * * * * curl https://example.com/bad-minute',
      '0 3 * * * curl http://metadata.google.internal/computeMetadata/v1/',
      '* * * curl https://example.com/short',
    ].join('\n');
    const res = await server.http.post('/api/jobs/import', { format: 'crontab', content: crontab, dry_run: true }, as(alice));
    expect(res.status).toBe(200);
    const items: Item[] = res.body.items;
    const bySource = new Map(items.map((i) => [i.source, i]));
    expect(bySource.get(2)).toMatchObject({ action: 'refuse', reason: 'Environment setting, not a job' });
    expect(bySource.get(3)).toMatchObject({ action: 'create', name: 'example-com-tick', definition: { url: 'https://example.com/tick', method: 'GET', cron_expression: '*/15 * * * *', time_zone: 'UTC' } });
    expect(bySource.get(5)).toMatchObject({
      action: 'create',
      name: 'example-com-hooks-backup',
      definition: { method: 'POST', headers: { Authorization: 'Bearer t0k' }, body: '{"full":true}', cron_expression: '0 2 * * 1-5', time_zone: 'America/New_York' },
    });
    // The same URL again gets a name of its own.
    expect(bySource.get(6)).toMatchObject({ action: 'create', name: 'example-com-tick-2', definition: { cron_expression: '0 0 * * *', time_zone: 'America/New_York' } });
    expect(bySource.get(7)).toMatchObject({ action: 'refuse', reason: '@reboot has no schedule' });
    expect(bySource.get(8)).toMatchObject({ action: 'refuse', reason: 'No http(s) URL in the command: only commands that call a URL can become jobs' });
    expect(bySource.get(9)?.action).toBe('refuse');
    expect(bySource.get(9)?.reason).toMatch(/^cron_expression: /);
    expect(bySource.get(10)).toMatchObject({ action: 'refuse', reason: 'url: URL must not point to a private, loopback or link-local address' });
    expect(bySource.get(11)).toMatchObject({ action: 'refuse', reason: 'Expected 5 schedule fields followed by a command' });
    expect(bySource.has(1)).toBe(false);
    expect(res.body).toMatchObject({ dry_run: true, created: 3, refused: 6 });
  });

  it('stops at the plan’s job limit, naming it, and creates what fits', async () => {
    const crontab = ['0 1 * * * curl https://example.com/a', '0 2 * * * curl https://example.com/b', '0 3 * * * curl https://example.com/c'].join('\n');
    const fresh = await signUpAndLogin(server);
    const res = await server.http.post('/api/jobs/import', { format: 'crontab', content: crontab }, as(fresh));
    expect(res.body.items.map((i: Item) => [i.action, i.reason])).toEqual([
      ['create', null],
      ['create', null],
      ['refuse', "The plan's job limit of 2 is reached"],
    ]);
    expect(await names(fresh)).toEqual(['example-com-a', 'example-com-b']);
  });

  it('keeps the plan’s limit and unique names when imports race: each stores what still fits in one transaction and refuses the rest', async () => {
    const racer = await signUpAndLogin(server);
    const importOf = (names: string[]) => ({ format: 'json', content: JSON.stringify({ jobs: names.map((name) => jobDefinition({ name })) }) });
    // Free plan: 2 jobs. Both previews see 2 slots; together they ask for 4.
    const answers = await Promise.all([importOf(['race-a', 'race-b']), importOf(['race-c', 'race-d'])].map((body) => server.http.post('/api/jobs/import', body, as(racer))));
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const created = answers.flatMap((a) => (a.body.items as Item[]).filter((i) => i.action === 'create'));
    expect(created).toHaveLength(2);
    expect((await names(racer)).sort()).toEqual(created.map((i) => i.name).sort());
    for (const item of answers.flatMap((a) => a.body.items as Item[]).filter((i) => i.action === 'refuse')) expect(item.reason).toMatch(/job limit/i);

    // The same names at once: each name is stored once, the other import refuses it.
    await setPlan(server, racer.userId, 'pro');
    const same = await Promise.all([0, 1].map(() => server.http.post('/api/jobs/import', importOf(['twin-a', 'twin-b']), as(racer))));
    expect(same.map((a) => a.status)).toEqual([200, 200]);
    expect(same.map((a) => a.body.created).reduce((x: number, y: number) => x + y)).toBe(2);
    const twins = (await names(racer)).filter((name) => name.startsWith('twin-'));
    expect(twins.sort()).toEqual(['twin-a', 'twin-b']);
    for (const item of same.flatMap((a) => a.body.items as Item[]).filter((i) => i.action === 'refuse')) expect(item.reason).toMatch(/A job with this name already exists$/);
  });

  it('answers 422 naming the field for unreadable requests and files', async () => {
    const cases: Array<[unknown, string[]]> = [
      [{ format: 'yaml', content: '' }, ['body', 'format']],
      [{ format: 'json' }, ['body', 'content']],
      [{ format: 'json', content: '{not json' }, ['body', 'content']],
      [{ format: 'json', content: '{"jobs": 3}' }, ['body', 'content']],
      [{ format: 'crontab', content: '', dry_run: 'yes' }, ['body', 'dry_run']],
      [{ format: 'crontab', content: 'x'.repeat(90 * 1024 + 1) }, ['body', 'content']],
    ];
    for (const [body, loc] of cases) {
      const res = await server.http.post('/api/jobs/import', body, as(alice));
      expect({ status: res.status, loc: res.body.detail?.[0]?.loc }).toEqual({ status: 422, loc });
    }
  });

  it('offers clone, export and import on /prog with an API key', async () => {
    const key = (await server.http.post('/api/api-keys/generate', { name: 'transfer' }, as(bob))).body.api_key;
    const auth = { token: key };
    const exported = await server.http.get('/prog/jobs/export', auth);
    expect(exported.status).toBe(200);
    expect(exported.body.jobs.length).toBeGreaterThan(0);
    const [first] = (await server.http.get('/prog/jobs', auth)).body;
    const copy = await server.http.post(`/prog/jobs/${first.job_id}/clone`, { name: 'prog-copy' }, auth);
    expect(copy.status).toBe(200);
    expect(copy.body.name).toBe('prog-copy');
    const preview = await server.http.post('/prog/jobs/import', { format: 'crontab', content: '0 5 * * * curl https://example.com/prog', dry_run: true }, auth);
    expect(preview.body).toMatchObject({ created: 1, refused: 0 });
  });
});
