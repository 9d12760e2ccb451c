import { request as httpRequest } from 'node:http';
import type { Monitor } from '@cronbeam/shared/notifications/monitors';
import type { StatusBadge, StatusIncident, StatusPage } from '@cronbeam/shared/notifications/status-pages';
import { HttpTarget } from '../fakes/http-target';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { jobDefinition, setPlan, sql, TEST_ADMIN_TOKEN } from './jobs-fixtures';

jest.setTimeout(60_000);

const SECRET_HEADER = 'header-secret-5f1c9e0d7b3a';
const SECRET_URL = 'url-secret-8a2d4c6e0f9b';
const DAY = 86_400_000;

/** A GET with a Host header of our choosing (fetch does not let a caller set Host). */
function getWithHost(baseUrl: string, path: string, host: string): Promise<{ status: number; type: string; body: string }> {
  const url = new URL(path, baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type'] ?? ''), body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Midnight UTC `daysAgo` days before today, plus `minutes`. */
const at = (daysAgo: number, minutes: number) => new Date(Math.floor(Date.now() / DAY) * DAY - daysAgo * DAY + minutes * 60_000).toISOString();

/**
 * Public status pages and badges through the running app: what they show
 * (and never show: a job's target URL, headers and ids), uptime from a
 * known run history, incidents with the owner's notes, slugs, ownership of
 * items, custom domains by Host header, and badge URLs that rotate and revoke.
 */
describe('status pages and badges', () => {
  let server: TestServer;
  let target: HttpTarget;
  let alice: SignedInAccount;
  let bob: SignedInAccount;
  const as = (who: SignedInAccount) => ({ token: who.accessToken });
  let secretJob: { job_id: string; name: string };
  let historyJob: { job_id: string; name: string };
  let monitor: Monitor;
  let page: StatusPage;

  /** Inserts a finished run as the scheduler records it. */
  const plant = (jobId: string, userId: string, executedAt: string, status: 'success' | 'failed' | 'skipped', attempt = 1, scheduledFor = executedAt) =>
    sql(
      server,
      `INSERT INTO job_runs (job_id, account_id, trigger, scheduled_for, attempt, due_at, state, status, executed_at, finished_at, response_code, duration_ms)
       VALUES ($1, $2, $3, $4, $5, $6, 'done', $7, $6, $6, 200, 10)`,
      [jobId, userId, attempt > 1 ? 'retry' : 'schedule', scheduledFor, attempt, executedAt, status],
    );

  beforeAll(async () => {
    target = await HttpTarget.start();
    target.on('/hook', (_req, res) => {
      res.writeHead(500);
      res.end('down');
    });
    server = await startTestServer({ ADMIN_TOKEN: TEST_ADMIN_TOKEN, PRIVATE_TARGET_ALLOWLIST: '127.0.0.1' });
    [alice, bob] = await Promise.all([signUpAndLogin(server), signUpAndLogin(server)]);
    await setPlan(server, alice.userId, 'pro');
    secretJob = (
      await server.http.post('/api/jobs', jobDefinition({ name: 'billing-export', url: `${target.url}/hook?token=${SECRET_URL}`, headers: { 'X-Api-Key': SECRET_HEADER } }), as(alice))
    ).body;
    historyJob = (await server.http.post('/api/jobs', jobDefinition({ name: 'nightly-sync' }), as(alice))).body;
    monitor = (await server.http.post('/api/monitors', { name: 'Backup box', period_seconds: 3600 }, as(alice))).body;
    // A real failed run of the secret job, through the executor (its error names the target).
    expect((await server.http.post(`/api/jobs/${secretJob.job_id}/run`, undefined, as(alice))).status).toBeLessThan(300);

    // The known history: two days ago 3 successes and a failure between them (an incident that a success ended);
    // yesterday a failed attempt whose retry succeeded (counts once, as a success) and a skipped run (not counted);
    // 100 days ago a failure, outside the window.
    await plant(historyJob.job_id, alice.userId, at(2, 600), 'success');
    await plant(historyJob.job_id, alice.userId, at(2, 601), 'failed');
    await plant(historyJob.job_id, alice.userId, at(2, 602), 'success');
    await plant(historyJob.job_id, alice.userId, at(2, 603), 'success');
    await plant(historyJob.job_id, alice.userId, at(1, 60), 'failed');
    await plant(historyJob.job_id, alice.userId, at(1, 61), 'success', 2, at(1, 60));
    await plant(historyJob.job_id, alice.userId, at(1, 62), 'skipped');
    await plant(historyJob.job_id, alice.userId, at(100, 0), 'failed');

    const created = await server.http.post(
      '/api/status-pages',
      {
        slug: 'Acme-Status',
        title: 'Acme services',
        items: [{ job_id: secretJob.job_id }, { job_id: historyJob.job_id, label: 'Data sync' }, { monitor_id: monitor.monitor_id }],
      },
      as(alice),
    );
    expect(created.status).toBe(200);
    page = created.body;
  });

  afterAll(async () => {
    await server?.close();
    await target?.close();
  });

  /** Every string that must never reach a public page, feed or badge. */
  const privateStrings = () => [SECRET_HEADER, SECRET_URL, target.url, new URL(target.url).host, '/hook', secretJob.job_id, historyJob.job_id, monitor.monitor_id, new URL(monitor.ping_url).pathname, alice.email];

  it('answers the page with its slug lowercased, items in order and its public URLs', () => {
    expect(page).toMatchObject({
      slug: 'acme-status',
      title: 'Acme services',
      custom_domain: null,
      items: [
        { job_id: secretJob.job_id, monitor_id: null, tag: null, label: null },
        { job_id: historyJob.job_id, monitor_id: null, tag: null, label: 'Data sync' },
        { job_id: null, monitor_id: monitor.monitor_id, tag: null, label: null },
      ],
      url: `${server.config.publicUrl}/status/acme-status`,
      feed_url: `${server.config.publicUrl}/status/acme-status/feed.atom`,
    });
  });

  it('renders the page, its feed and badges without any private field', async () => {
    const html = await server.http.get('/status/acme-status');
    expect(html.status).toBe(200);
    expect(html.headers.get('content-type')).toMatch(/^text\/html/);
    expect(html.headers.get('cache-control')).toBe('public, max-age=30');
    expect(html.headers.get('content-encoding')).toBe('gzip');
    expect(html.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(html.text).not.toContain('<script');
    expect(html.text).toContain('<h1>Acme services</h1>');
    expect(html.text).toContain('billing-export');
    expect(html.text).toContain('Data sync');
    expect(html.text).toContain('Backup box');
    // The executed run failed and nothing succeeded since: the job is failing and the page says so.
    expect(html.text).toContain('Some systems are failing');

    const feed = await server.http.get('/status/acme-status/feed.atom');
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
    expect(feed.text).toContain('<title>billing-export: failing</title>');

    const badges: StatusBadge[] = [];
    for (const subject of [{ job_id: secretJob.job_id }, { monitor_id: monitor.monitor_id }, { page_id: page.page_id }]) {
      const res = await server.http.post('/api/status-badges', subject, as(alice));
      expect(res.status).toBe(200);
      badges.push(res.body);
    }
    const svgs: string[] = [];
    for (const badge of badges) {
      expect(badge.url).toMatch(new RegExp(`^${server.config.publicUrl}/badge/[A-Za-z0-9_-]{43}\\.svg$`));
      const svg = await server.http.get(new URL(badge.url).pathname);
      expect(svg.status).toBe(200);
      expect(svg.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
      expect(svg.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(svg.headers.get('cache-control')).toBe('public, max-age=30');
      svgs.push(svg.text);
    }
    expect(svgs[0]).toContain('billing-export: failing · 0%');
    expect(svgs[1]).toContain('Backup box: no data');

    for (const text of [html.text, feed.text, ...svgs]) {
      for (const secret of privateStrings()) expect(text).not.toContain(secret);
    }
  });

  it('lets browsers, feed readers and badge caches revalidate a page, its feed and a badge (ETag, then 304 without a body)', async () => {
    const badge = (await server.http.post('/api/status-badges', { page_id: page.page_id }, as(alice))).body as StatusBadge;
    for (const path of ['/status/acme-status', '/status/acme-status/feed.atom', new URL(badge.url).pathname]) {
      const first = await server.http.get(path);
      const tag = first.headers.get('etag');
      expect({ path, tag }).toEqual({ path, tag: expect.stringMatching(/^W\/"[0-9a-f]+-[\w+/]{27}"$/) });
      const again = await server.http.get(path, { headers: { 'if-none-match': tag! } });
      expect({ path, status: again.status, body: again.text, tag: again.headers.get('etag') }).toEqual({ path, status: 304, body: '', tag });
      const stale = await server.http.get(path, { headers: { 'if-none-match': 'W/"0-stale"' } });
      expect({ path, status: stale.status }).toEqual({ path, status: 200 });
      expect(stale.text).toBe(first.text);
    }
  });

  it('computes uptime from the known run history: final outcomes of the window only', async () => {
    const html = (await server.http.get('/status/acme-status')).text;
    // 4 successes (the retry's counts, its failed first attempt does not) against 1 failure: 80%.
    const item = html.slice(html.indexOf('Data sync'));
    expect(item).toContain('Uptime over 90 days: 80%');
    expect(item).toContain(`${at(2, 0).slice(0, 10)}: 3 of 4 succeeded`);
    expect(item).toContain(`${at(1, 0).slice(0, 10)}: 1 of 1 succeeded`);
    expect(html.match(/class="[nupd]" title=/g)).toHaveLength(3 * 90);

    const badge = (await server.http.post('/api/status-badges', { job_id: historyJob.job_id }, as(alice))).body as StatusBadge;
    expect((await server.http.get(new URL(badge.url).pathname)).text).toContain('nightly-sync: up · 80%');
  });

  it('lists incidents to the owner, and publishes a note on one on the page and in the feed', async () => {
    const res = await server.http.get(`/api/status-pages/${page.page_id}/incidents`, as(alice));
    expect(res.status).toBe(200);
    const incidents: StatusIncident[] = res.body.incidents;
    const sync = incidents.filter((i) => i.job_id === historyJob.job_id);
    expect(sync).toEqual([{ job_id: historyJob.job_id, monitor_id: null, name: 'Data sync', started_at: at(2, 601), resolved_at: at(2, 602), failures: 1, note: null }]);
    expect(incidents.find((i) => i.job_id === secretJob.job_id)).toMatchObject({ resolved_at: null, failures: 1 });

    const note = 'The upstream API was down; <b>fixed</b> by retrying.';
    const saved = await server.http.put(`/api/status-pages/${page.page_id}/incidents/note`, { job_id: historyJob.job_id, started_at: at(2, 601), note }, as(alice));
    expect(saved.status).toBe(200);
    expect(saved.body.note).toBe(note);
    const html = (await server.http.get('/status/acme-status')).text;
    expect(html).toContain('The upstream API was down; &#60;b&#62;fixed&#60;/b&#62; by retrying.');
    const feed = (await server.http.get('/status/acme-status/feed.atom')).text;
    expect(feed).toContain('<title>Data sync: resolved</title>');
    expect(feed).toContain('The upstream API was down');

    const wrongStart = await server.http.put(`/api/status-pages/${page.page_id}/incidents/note`, { job_id: historyJob.job_id, started_at: at(2, 0), note: 'x' }, as(alice));
    expect(wrongStart.status).toBe(422);
    expect(wrongStart.body.detail[0].loc).toEqual(['body', 'started_at']);
    const notMine = await server.http.put(`/api/status-pages/${page.page_id}/incidents/note`, { job_id: historyJob.job_id, started_at: at(2, 601), note: 'x' }, as(bob));
    expect(notMine.status).toBe(404);

    expect((await server.http.put(`/api/status-pages/${page.page_id}/incidents/note`, { job_id: historyJob.job_id, started_at: at(2, 601), note: '' }, as(alice))).body.note).toBeNull();
    expect((await server.http.get('/status/acme-status')).text).not.toContain('The upstream API was down');
  });

  it('keeps slugs unique across accounts, whatever their case', async () => {
    const taken = await server.http.post('/api/status-pages', { slug: 'ACME-status', title: 'Copycat' }, as(bob));
    expect(taken.status).toBe(422);
    expect(taken.body.detail[0]).toMatchObject({ loc: ['body', 'slug'], msg: 'This slug is taken; choose another' });
    const bobs = await server.http.post('/api/status-pages', { slug: 'bob-status', title: 'Bob' }, as(bob));
    expect(bobs.status).toBe(200);
    const renamed = await server.http.put(`/api/status-pages/${bobs.body.page_id}`, { slug: 'acme-status', title: 'Bob' }, as(bob));
    expect(renamed.status).toBe(422);
    expect(renamed.body.detail[0].loc).toEqual(['body', 'slug']);
  });

  it("refuses another account's jobs and monitors on my page, and on my badges", async () => {
    const mine = (await server.http.post('/api/status-pages', { slug: 'bob-two', title: 'Bob two' }, as(bob))).body as StatusPage;
    const job = await server.http.put(`/api/status-pages/${mine.page_id}`, { slug: 'bob-two', title: 'Bob two', items: [{ job_id: secretJob.job_id }] }, as(bob));
    expect(job.status).toBe(422);
    expect(job.body.detail[0]).toMatchObject({ loc: ['body', 'items', 0, 'job_id'], msg: 'job_id names a job that is not yours' });
    const mon = await server.http.post('/api/status-pages', { slug: 'bob-three', title: 'x', items: [{ monitor_id: monitor.monitor_id }] }, as(bob));
    expect(mon.status).toBe(422);
    expect(mon.body.detail[0].loc).toEqual(['body', 'items', 0, 'monitor_id']);
    expect((await server.http.post('/api/status-badges', { job_id: secretJob.job_id }, as(bob))).status).toBe(422);
    expect((await server.http.post('/api/status-badges', { page_id: page.page_id }, as(bob))).status).toBe(422);
    expect((await server.http.get(`/api/status-pages/${page.page_id}`, as(bob))).status).toBe(404);
    expect((await server.http.delete(`/api/status-pages/${page.page_id}`, as(bob))).status).toBe(404);
    expect((await server.http.get(`/api/status-pages/${page.page_id}/incidents`, as(bob))).status).toBe(404);
    // Nothing of Alice's reached Bob's page.
    expect((await server.http.get('/status/bob-two')).text).not.toContain('billing-export');
  });

  it.each([
    [{ slug: 'a', title: 't' }, ['body', 'slug']],
    [{ slug: '-bad-', title: 't' }, ['body', 'slug']],
    [{ slug: 'good', title: '' }, ['body', 'title']],
    [{ slug: 'good', title: 't', custom_domain: 'https://status.example.com' }, ['body', 'custom_domain']],
    [{ slug: 'good', title: 't', custom_domain: '127.0.0.1' }, ['body', 'custom_domain']],
    [{ slug: 'good', title: 't', items: [{ job_id: 'x', monitor_id: 'y' }] }, ['body', 'items', 0, 'job_id']],
    [{ slug: 'good', title: 't', items: [{}] }, ['body', 'items', 0, 'job_id']],
    [{ slug: 'good', title: 't', items: [{ job_id: 'not-a-uuid' }] }, ['body', 'items', 0, 'job_id']],
    [{ slug: 'good', title: 't', secret: 1 }, ['body']],
  ])('refuses %j with a 422 naming %j', async (body, loc) => {
    const res = await server.http.post('/api/status-pages', body, as(alice));
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(loc);
  });

  it('refuses the same job twice on a page', async () => {
    const res = await server.http.post('/api/status-pages', { slug: 'twice', title: 't', items: [{ job_id: historyJob.job_id }, { job_id: historyJob.job_id }] }, as(alice));
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'items', 1, 'job_id']);
  });

  it('serves a page at its custom domain by Host header, and nothing else there', async () => {
    const updated = await server.http.put(
      `/api/status-pages/${page.page_id}`,
      { slug: page.slug, title: page.title, custom_domain: 'Status.Acme.example', items: page.items.map((i) => (i.job_id ? { job_id: i.job_id, label: i.label } : { monitor_id: i.monitor_id })) },
      as(alice),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.custom_domain).toBe('status.acme.example');

    const root = await getWithHost(server.baseUrl, '/', 'status.acme.example');
    expect(root.status).toBe(200);
    expect(root.body).toContain('<h1>Acme services</h1>');
    expect(root.body).toContain('href="/feed.atom"');
    const feed = await getWithHost(server.baseUrl, '/feed.atom', 'status.acme.example:443');
    expect(feed.status).toBe(200);
    expect(feed.body).toContain('<link rel="self" type="application/atom+xml" href="http://status.acme.example:443/feed.atom"/>');
    expect((await getWithHost(server.baseUrl, '/login', 'status.acme.example')).status).toBe(404);
    // Another host is not the page's.
    const other = await getWithHost(server.baseUrl, '/', 'other.acme.example');
    expect(other.body).not.toContain('<h1>Acme services</h1>');
    for (const text of [root.body, feed.body]) for (const secret of privateStrings()) expect(text).not.toContain(secret);

    const clash = await server.http.post('/api/status-pages', { slug: 'bob-clash', title: 'x', custom_domain: 'status.acme.example' }, as(bob));
    expect(clash.status).toBe(422);
    expect(clash.body.detail[0]).toMatchObject({ loc: ['body', 'custom_domain'], msg: 'This custom domain is used by another status page' });
    const ours = await server.http.post('/api/status-pages', { slug: 'bob-ours', title: 'x', custom_domain: new URL(server.config.publicUrl).host }, as(bob));
    expect(ours.status).toBe(422);
    expect(ours.body.detail[0].loc).toEqual(['body', 'custom_domain']);

    // Moving the page off the domain takes effect at once.
    await server.http.put(`/api/status-pages/${page.page_id}`, { slug: page.slug, title: page.title, items: updated.body.items.map((i: { job_id: string | null; monitor_id: string | null; label: string | null }) => (i.job_id ? { job_id: i.job_id, label: i.label } : { monitor_id: i.monitor_id })) }, as(alice));
    expect((await getWithHost(server.baseUrl, '/', 'status.acme.example')).body).not.toContain('<h1>Acme services</h1>');
  });

  it('rotates and revokes badge URLs, and a made-up token is a 404', async () => {
    const badge: StatusBadge = (await server.http.post('/api/status-badges', { monitor_id: monitor.monitor_id }, as(alice))).body;
    const oldPath = new URL(badge.url).pathname;
    expect((await server.http.get(oldPath)).status).toBe(200);
    const rotated = await server.http.post(`/api/status-badges/${badge.badge_id}/rotate`, undefined, as(alice));
    expect(rotated.status).toBe(200);
    expect(rotated.body.url).not.toBe(badge.url);
    expect((await server.http.get(oldPath)).status).toBe(404);
    const newPath = new URL(rotated.body.url).pathname;
    expect((await server.http.get(newPath)).status).toBe(200);
    expect((await server.http.post(`/api/status-badges/${badge.badge_id}/rotate`, undefined, as(bob))).status).toBe(404);
    expect((await server.http.delete(`/api/status-badges/${badge.badge_id}`, as(bob))).status).toBe(404);
    expect((await server.http.delete(`/api/status-badges/${badge.badge_id}`, as(alice))).status).toBe(200);
    expect((await server.http.get(newPath)).status).toBe(404);
    expect((await server.http.get(`/badge/${'A'.repeat(43)}.svg`)).status).toBe(404);
    expect((await server.http.get('/badge/short.svg')).status).toBe(404);
    expect((await server.http.get('/status/no-such-page')).status).toBe(404);
    const listed: StatusBadge[] = (await server.http.get('/api/status-badges', as(alice))).body;
    expect(listed.map((b) => b.badge_id)).not.toContain(badge.badge_id);
  });

  it('manages pages, notes and badges on /prog with an API key, with the same rules', async () => {
    const key = (await server.http.post('/api/api-keys/generate', { name: 'status' }, as(alice))).body.api_key;
    const auth = { token: key };
    const created = await server.http.post('/prog/status-pages', { slug: 'prog-page', title: 'From the API', items: [{ job_id: historyJob.job_id }] }, auth);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ slug: 'prog-page', items: [{ job_id: historyJob.job_id, monitor_id: null, tag: null, label: null }] });
    expect((await server.http.get('/prog/status-pages', auth)).body.map((p: StatusPage) => p.slug)).toContain('prog-page');
    expect((await server.http.get(`/prog/status-pages/${created.body.page_id}`, auth)).body.title).toBe('From the API');
    const taken = await server.http.post('/prog/status-pages', { slug: 'acme-status', title: 'x' }, auth);
    expect(taken.status).toBe(422);
    expect(taken.body.detail[0].loc).toEqual(['body', 'slug']);
    const bobKey = (await server.http.post('/api/api-keys/generate', { name: 'bob' }, as(bob))).body.api_key;
    const foreign = await server.http.post('/prog/status-pages', { slug: 'bob-prog', title: 'x', items: [{ job_id: historyJob.job_id }] }, { token: bobKey });
    expect(foreign.status).toBe(422);
    expect(foreign.body.detail[0].loc).toEqual(['body', 'items', 0, 'job_id']);

    const incidents: StatusIncident[] = (await server.http.get(`/prog/status-pages/${created.body.page_id}/incidents`, auth)).body.incidents;
    expect(incidents).toHaveLength(1);
    const noted = await server.http.put(`/prog/status-pages/${created.body.page_id}/incidents/note`, { job_id: historyJob.job_id, started_at: incidents[0]!.started_at, note: 'Noted by API' }, auth);
    expect(noted.body.note).toBe('Noted by API');
    expect((await server.http.get('/status/prog-page')).text).toContain('Noted by API');

    const badge = await server.http.post('/prog/status-badges', { page_id: created.body.page_id }, auth);
    expect(badge.status).toBe(200);
    const svg = await server.http.get(new URL(badge.body.url).pathname);
    expect(svg.text).toContain('From the API: up · 80%');
    expect((await server.http.post(`/prog/status-badges/${badge.body.badge_id}/rotate`, undefined, auth)).status).toBe(200);
    expect((await server.http.get('/prog/status-badges', auth)).body.map((b: StatusBadge) => b.badge_id)).toContain(badge.body.badge_id);
    expect((await server.http.delete(`/prog/status-badges/${badge.body.badge_id}`, auth)).status).toBe(200);
    expect((await server.http.delete(`/prog/status-pages/${created.body.page_id}`, auth)).status).toBe(200);
    expect((await server.http.get('/status/prog-page')).status).toBe(404);
  });

  it('holds the page limit under concurrent creations: exactly 20 of 25 at once', async () => {
    const carol = await signUpAndLogin(server);
    const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => server.http.post('/api/status-pages', { slug: `carol-${i}`, title: `Carol ${i}` }, as(carol))));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(20);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.map((a) => [a.status, a.body.detail])).toEqual(Array(5).fill([403, 'An account has at most 20 status pages']));
    expect((await server.http.get('/api/status-pages', as(carol))).body).toHaveLength(20);
  });

  it("shows every job and monitor of a tag, the owner's only, and follows the tag as items change", async () => {
    const tagged = (await server.http.post('/api/jobs', jobDefinition({ name: 'tagged-job', tags: ['Billing'] }), as(alice))).body;
    const taggedMonitor = (await server.http.post('/api/monitors', { name: 'tagged-box', period_seconds: 3600, tags: ['billing'] }, as(alice))).body;
    await server.http.post('/api/jobs', jobDefinition({ name: 'untagged-job' }), as(alice));
    const bobs = (await server.http.post('/api/jobs', jobDefinition({ name: 'bobs-billing', tags: ['billing'] }), as(bob))).body;
    expect(bobs.job_id).toBeDefined();
    const created = await server.http.post('/api/status-pages', { slug: 'by-tag', title: 'Billing', items: [{ job_id: tagged.job_id, label: 'First' }, { tag: 'BILLING' }] }, as(alice));
    expect(created.status).toBe(200);
    expect(created.body.items).toEqual([
      { job_id: tagged.job_id, monitor_id: null, tag: null, label: 'First' },
      { job_id: null, monitor_id: null, tag: 'billing', label: null },
    ]);
    let html = (await server.http.get('/status/by-tag')).text;
    // The job named on its own keeps its place and label; the tag adds the monitor, not the job twice.
    expect(html.match(/class="name">[^<]+/g)).toEqual(['class="name">First', 'class="name">tagged-box']);
    expect(html).not.toContain('untagged-job');
    expect(html).not.toContain('bobs-billing');

    const later = (await server.http.post('/api/jobs', jobDefinition({ name: 'later-billing', tags: ['billing'] }), as(alice))).body;
    await server.http.put(`/api/status-pages/${created.body.page_id}`, { slug: 'by-tag', title: 'Billing', items: [{ tag: 'billing' }] }, as(alice));
    html = (await server.http.get('/status/by-tag')).text;
    expect(html.match(/class="name">[^<]+/g)?.sort()).toEqual(['class="name">later-billing', 'class="name">tagged-box', 'class="name">tagged-job']);
    const twice = await server.http.post('/api/status-pages', { slug: 'tag-twice', title: 't', items: [{ tag: 'billing' }, { tag: 'Billing' }] }, as(alice));
    expect(twice.status).toBe(422);
    expect(twice.body.detail[0].loc).toEqual(['body', 'items', 1, 'tag']);
    const bad = await server.http.post('/api/status-pages', { slug: 'tag-bad', title: 't', items: [{ tag: 'no spaces' }] }, as(alice));
    expect(bad.status).toBe(422);
    expect(bad.body.detail[0].loc).toEqual(['body', 'items', 0, 'tag']);
    for (const id of [tagged.job_id, later.job_id]) await server.http.delete(`/api/jobs/${id}`, as(alice));
    await server.http.delete(`/api/monitors/${taggedMonitor.monitor_id}`, as(alice));
  });

  it('drops a deleted page at once', async () => {
    const temp = (await server.http.post('/api/status-pages', { slug: 'short-lived', title: 'Temp' }, as(alice))).body as StatusPage;
    expect((await server.http.get('/status/short-lived')).status).toBe(200);
    expect((await server.http.delete(`/api/status-pages/${temp.page_id}`, as(alice))).status).toBe(200);
    expect((await server.http.get('/status/short-lived')).status).toBe(404);
  });
});
