import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CONTACT_MESSAGES } from '@cronbeam/shared/site/contact-rules';
import { signUpAndLogin } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { fakeJwt } from '../browser/support/session-cookies';
import { buildWebApp } from '../browser/support/web-build';

jest.setTimeout(120_000);

const run = promisify(execFile);

const GUIDES: Record<string, number> = {
  'mcp-introduction': 10,
  'monitor-n8n': 5,
  'deploy-n8n': 8,
  'cronbeam-vs-traditional-tools': 7,
  webhooks: 6,
  'ci-cd': 9,
  'data-pipeline-monitoring': 8,
};
const PAGES = ['/', '/pricing', '/terms', '/privacy', '/refund', '/contact', '/api-documentation', '/guides', ...Object.keys(GUIDES).map((g) => `/guides/${g}`)];
const API_ANCHORS = [
  'overview', 'authentication', 'quick-start', 'endpoints', 'health-check', 'create-job', 'list-jobs', 'get-job', 'update-job',
  'delete-job', 'pause-job', 'resume-job', 'job-logs', 'schemas', 'validation', 'examples', 'troubleshooting',
];

/** The text of an HTML fragment as a reader sees it (tags dropped, entities decoded). */
function textOf(html: string): string {
  return html
    .replace(/<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

const meta = (html: string, attr: 'name' | 'property', key: string) =>
  html.match(new RegExp(`<meta ${attr}="${key}" content="([^"]*)"`))?.[1];

/** The text of the code sample a page labels so (the <pre aria-label=...>). */
function codeSample(html: string, label: string): string {
  const block = html.match(new RegExp(`<pre aria-label="${label}"[^>]*><code>([\\s\\S]*?)</code></pre>`))?.[1];
  if (block === undefined) throw new Error(`no code sample '${label}'`);
  // Entities decoded, whitespace kept (Python's indentation is syntax).
  return block
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

describe('public site pages (raw HTML, no JavaScript)', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp() });
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it.each(PAGES)('%s answers 200 with its title, description, canonical link, social tags and main heading', async (path) => {
    const res = await server.http.get(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = res.text;
    const title = html.match(/<title>([^<]+)<\/title>/)?.[1];
    expect(title).toMatch(/Cronbeam/);
    const description = meta(html, 'name', 'description');
    expect(description?.length).toBeGreaterThan(50);
    expect(html).toContain(`<link rel="canonical" href="${server.baseUrl}${path}" />`);
    expect(meta(html, 'property', 'og:title')).toBe(title);
    expect(meta(html, 'property', 'og:description')).toBe(description);
    expect(meta(html, 'property', 'og:url')).toBe(`${server.baseUrl}${path}`);
    expect(meta(html, 'name', 'twitter:card')).toBe('summary');
    expect(html).not.toContain('__cronbeam_');
    // One main heading, and the main text is in the HTML itself.
    expect(html.match(/<h1[ >]/g)).toHaveLength(1);
    const main = textOf(html.match(/<main[^>]*>([\s\S]*)<\/main>/)?.[1] ?? '');
    expect(main.length).toBeGreaterThan(path === '/contact' ? 300 : 500);
  });

  it('shows the landing page with every part, and the nav bar and footer links', async () => {
    const html = (await server.http.get('/')).text;
    const text = textOf(html);
    for (const step of ['Sign Up', 'Create a Job', 'Paste URL', 'Set Schedule', 'Sleep Well']) expect(text).toContain(step);
    expect(html).toMatch(/<a class="button button-primary button-large" href="\/signup">Start for Free<\/a>/);
    expect(html).toMatch(/href="\/login">Login<\/a>/);
    expect(html).toMatch(/href="\/pricing">/);
    expect(html.match(/<li class="site-card">/g)).toHaveLength(8);
    expect(html.match(/<div class="site-card">/g)).toHaveLength(4);
    expect(html).toMatch(/href="\/api-documentation">Read the API documentation/);
    const nav = html.match(/<nav class="site-nav" aria-label="Main">([\s\S]*?)<\/nav>/)?.[1] ?? '';
    expect([...nav.matchAll(/href="([^"]+)"[^>]*>([\s\S]*?)<\/a>/g)].map((m) => `${textOf(m[2]).replace('◷', '').trim()} ${m[1]}`)).toEqual([
      'Cronbeam /', 'Guides /guides', 'Pricing /pricing', 'API Docs /api-documentation', 'Go to Dashboard /login',
    ]);
    const footer = html.match(/<footer[\s\S]*?<\/footer>/)?.[0] ?? '';
    expect([...footer.matchAll(/href="([^"]+)">([^<]+)</g)].map((m) => `${m[2]} ${m[1]}`)).toEqual([
      'Guides /guides', 'Privacy Policy /privacy', 'Terms of Service /terms', 'Refund Policy /refund', 'Contact Us /contact',
    ]);
  });

  it('states the legal and contact facts', async () => {
    expect(textOf((await server.http.get('/terms')).text)).toContain('at least 13 years old');
    expect(textOf((await server.http.get('/privacy')).text)).toContain('children under 13');
    const refund = textOf((await server.http.get('/refund')).text);
    expect(refund).toContain('within 48 hours of the payment, as long as no executions have run');
    expect(refund).toContain('within 3-5 business days');
    expect(textOf((await server.http.get('/contact')).text)).toContain('we answer within 24-48 hours');
  });

  it('lists the guides with their reading times, and gives each guide breadcrumbs, closing links and metadata', async () => {
    const index = (await server.http.get('/guides')).text;
    expect(index).toMatch(/href="\/signup">Start Free Trial</);
    expect(index).toMatch(/href="\/pricing">View Pricing</);
    for (const [slug, minutes] of Object.entries(GUIDES)) {
      const card = index.match(new RegExp(`<li class="site-card">((?:(?!</li>)[\\s\\S])*href="/guides/${slug}"[\\s\\S]*?)</li>`))?.[1] ?? '';
      expect({ slug, card: textOf(card).match(/\d+ min read/)?.[0] }).toEqual({ slug, card: `${minutes} min read` });
      const html = (await server.http.get(`/guides/${slug}`)).text;
      const crumbs = html.match(/<nav class="site-breadcrumbs" aria-label="Breadcrumb">([\s\S]*?)<\/nav>/)?.[1] ?? '';
      const h1 = textOf(html.match(/<h1>([\s\S]*?)<\/h1>/)?.[1] ?? '');
      expect(textOf(crumbs.replace(/<\/li>/g, ' > </li>'))).toBe(`Home > Guides > ${h1} >`);
      expect(textOf(html)).toContain(`${minutes} min read`);
      const closing = html.match(/<aside class="site-closing"[\s\S]*?<\/aside>/)?.[0] ?? '';
      expect(closing).toContain('href="/signup"');
      expect(closing).toContain('href="/guides"');
      expect(meta(html, 'name', 'keywords')?.split(', ').length).toBeGreaterThanOrEqual(3);
      expect(meta(html, 'property', 'og:type')).toBe('article');
      const jsonLd = html.match(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/)?.[1];
      if (['webhooks', 'ci-cd', 'data-pipeline-monitoring'].includes(slug)) {
        const article = JSON.parse(jsonLd ?? 'null');
        expect(article).toMatchObject({ '@type': 'Article', headline: h1, mainEntityOfPage: `${server.baseUrl}/guides/${slug}` });
      }
    }
  });

  it('with no hosts configured, shows / to visitors and sends a signed-in user to the dashboard', async () => {
    expect((await server.http.get('/')).status).toBe(200);
    const exp = Math.floor(Date.now() / 1000) + 600;
    const res = await server.http.get('/', { headers: { cookie: `idToken=${fakeJwt({ sub: 'u1', exp })}` } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/dashboard');
  });

  it('prerenders /pricing in the site frame: title, description, heading, the three plan cards and the questions, before any script runs', async () => {
    const res = await server.http.get('/pricing');
    expect(res.status).toBe(200);
    const html = res.text;
    expect(html.match(/<title>([^<]+)<\/title>/g)).toEqual(['<title>Pricing: Free, Basic and Pro plans | Cronbeam</title>']);
    expect(html.match(/<meta name="description"/g)).toHaveLength(1);
    expect(meta(html, 'name', 'description')).toContain('Basic $9.8/month ($7.9 billed annually): 10 jobs, 1,500 executions');
    expect(html).toContain(`<link rel="canonical" href="${server.baseUrl}/pricing" />`);
    expect(meta(html, 'property', 'og:title')).toBe('Pricing: Free, Basic and Pro plans | Cronbeam');
    expect(textOf(html.match(/<h1>([\s\S]*?)<\/h1>/)?.[1] ?? '')).toBe('Simple pricing for reliable cron jobs');
    // The same header as every public page, not a header of its own.
    expect(html).toContain('<nav class="site-nav" aria-label="Main">');
    const cards = [...html.matchAll(/<article class="plan-card[^"]*"[^>]*>([\s\S]*?)<\/article>/g)].map((m) => textOf(m[1]));
    expect(cards.map((card) => card.match(/^(?:Most popular )?(\w+)/)?.[1])).toEqual(['Free', 'Basic', 'Pro']);
    expect(cards[0]).toContain('Start for Free');
    expect(cards[1]).toMatch(/\$7\.9 \/ month/);
    expect(cards[2]).toContain('Get Pro');
    const faq = [...html.matchAll(/<summary>([^<]+)<\/summary>/g)].map((m) => m[1]);
    expect(faq).toContain('Can I cancel at any time?');
    expect(faq.length).toBeGreaterThanOrEqual(5);
  });

  it('redirects /guides/data-pipelines with 301 to /guides/data-pipeline-monitoring', async () => {
    const res = await server.http.get('/guides/data-pipelines');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/guides/data-pipeline-monitoring');
  });

  it('answers unknown paths with a real 404 page, and app screens with the app', async () => {
    for (const path of ['/no-such-page', '/guides/no-such-guide', '/terms/extra', '/missing.png']) {
      const res = await server.http.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 404 });
      expect(res.text).toContain('<h1>Page not found</h1>');
      expect(res.text).toContain('<meta name="robots" content="noindex" />');
    }
    for (const path of ['/login', '/signup', '/verify', '/auth/callback']) {
      const res = await server.http.get(path);
      expect({ path, status: res.status }).toEqual({ path, status: 200 });
      expect(res.text).toContain('<div id="root"></div>');
    }
    expect((await server.http.get('/api/no-such-route')).body).toEqual({ detail: expect.any(String) });
    expect((await server.http.get('/site-pages/terms.html')).status).toBe(404);
  });

  it('lists the public pages in sitemap.xml and robots.txt', async () => {
    const sitemap = await server.http.get('/sitemap.xml');
    expect(sitemap.status).toBe(200);
    const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(locs.sort()).toEqual(PAGES.map((p) => `${server.baseUrl}${p}`).sort());
    const robots = await server.http.get('/robots.txt');
    expect(robots.text).toContain(`Sitemap: ${server.baseUrl}/sitemap.xml`);
    expect(robots.text).toContain('Disallow: /dashboard');
  });

  it('finds no broken link crawling from / (every internal link of every page resolves)', async () => {
    const seen = new Map<string, number>();
    const queue = ['/'];
    while (queue.length > 0) {
      const path = queue.shift()!;
      if (seen.has(path)) continue;
      let res = await server.http.get(path);
      // Redirects are followed on this host (the guards send /dashboard to /login).
      for (let hops = 0; res.status >= 300 && res.status < 400 && hops < 5; hops += 1) {
        res = await server.http.get(new URL(res.headers.get('location')!, server.baseUrl).pathname);
      }
      seen.set(path, res.status);
      if (res.status !== 200 || !res.text.includes('class="site"')) continue;
      const ids = new Set([...res.text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
      for (const [, href] of res.text.matchAll(/<a [^>]*href="([^"]+)"/g)) {
        if (href.startsWith('#')) {
          expect({ page: path, anchor: href, exists: ids.has(href.slice(1)) }).toEqual({ page: path, anchor: href, exists: true });
        } else if (href.startsWith('/')) {
          queue.push(href.split('#')[0].split('?')[0]);
        }
      }
    }
    const broken = [...seen].filter(([, status]) => status !== 200);
    expect(broken).toEqual([]);
    for (const page of PAGES) expect(seen.has(page)).toBe(true);
  });

  it('gives /api-documentation every anchor, generated from the document served at /prog/openapi.json', async () => {
    const html = (await server.http.get('/api-documentation')).text;
    for (const anchor of API_ANCHORS) expect(html).toContain(`id="${anchor}"`);
    expect(html).toMatch(/href="\/dashboard"/);
    expect(html).toMatch(/href="\/signup"/);
    const live = (await server.http.get('/prog/openapi.json')).body;
    const generated = JSON.parse(readFileSync(resolve(__dirname, '../../dist/generated/prog-openapi.json'), 'utf8'));
    // The page is built from this document, which `npm run build:web` exports from the backend code.
    expect(generated).toEqual(live);
    const text = textOf(html);
    for (const ops of Object.values(live.paths) as Array<Record<string, { summary: string }>>) {
      for (const op of Object.values(ops)) expect(text).toContain(op.summary);
    }
  });

  describe('code samples run as printed (only the key and user id filled in)', () => {
    let credentials: (code: string) => string;

    beforeAll(async () => {
      const account = await signUpAndLogin(server);
      const key = await server.http.post('/api/api-keys/generate', { name: 'site samples' }, { token: account.accessToken });
      expect(key.status).toBeLessThan(300);
      credentials = (code) => code.replaceAll('YOUR_API_KEY', key.body.api_key).replaceAll('YOUR_USER_ID', account.userId);
    });

    it('the landing page creates a job with curl', async () => {
      const curl = codeSample((await server.http.get('/')).text, 'Create a job with curl');
      expect(curl).toContain(`${server.baseUrl}/prog/jobs`);
      const { stdout } = await run('sh', ['-c', `${credentials(curl)} --silent --show-error --fail-with-body`]);
      const job = JSON.parse(stdout);
      expect(job).toMatchObject({ name: 'nightly-report', status: 'pending', cron_expression: '0 9 * * 1-5' });
      expect(typeof job.next_run_at).toBe('string');
      const deleted = await run('sh', ['-c', credentials(`curl --silent --fail -X DELETE -H "X-API-Key: YOUR_API_KEY" -H "X-User-ID: YOUR_USER_ID" ${server.baseUrl}/prog/jobs/${job.job_id}`)]);
      expect(deleted.stdout).toBeTruthy();
    });

    it('the Python example of /api-documentation', async () => {
      const code = codeSample((await server.http.get('/api-documentation')).text, 'Python example');
      const dir = mkdtempSync(join(tmpdir(), 'cronbeam-python-'));
      writeFileSync(join(dir, 'example.py'), credentials(code));
      const { stdout } = await run('python3', [join(dir, 'example.py')]);
      expect(stdout).toMatch(/^\{'message': 'pong'\}\ncreated [0-9a-f-]{36} next run \S+\nupdated \*\/30 \* \* \* \*\npaused\nscheduled\n1 job\(s\) in your account\n0 run\(s\) logged\ndeleted [0-9a-f-]{36}\n$/);
    });

    it('the JavaScript example of /api-documentation', async () => {
      const code = codeSample((await server.http.get('/api-documentation')).text, 'JavaScript example');
      const dir = mkdtempSync(join(tmpdir(), 'cronbeam-js-'));
      writeFileSync(join(dir, 'example.mjs'), credentials(code));
      const { stdout } = await run(process.execPath, [join(dir, 'example.mjs')]);
      expect(stdout).toMatch(/^created [0-9a-f-]{36} next run \S+\nupdated 30 3 \* \* \*\npaused\nscheduled\n1 job\(s\) in your account\n0 run\(s\) logged\ndeleted [0-9a-f-]{36}\n$/);
    });
  });

  describe('contact form', () => {
    const valid = { name: 'Ada Visitor', email: 'ada@example.test', subject: 'Question about plans', message: 'Can I pay annually?' };

    it('mails a valid message to the team', async () => {
      const res = await server.http.post('/api/site/contact', valid);
      expect(res.status).toBe(202);
      const outbox = (await server.http.get('/api/dev/outbox')).body as Array<{ to: string; subject: string; text: string }>;
      const mail = outbox.find((m) => m.subject === '[Contact] Question about plans');
      expect(mail?.to).toBe('no-reply@cronbeam.localhost');
      expect(mail?.text).toContain('From: Ada Visitor <ada@example.test>');
      expect(mail?.text).toContain('Can I pay annually?');
    });

    it('refuses bad input with 422 naming each field', async () => {
      const res = await server.http.post('/api/site/contact', { name: ' ', email: 'not-an-email', message: '', extra: 1 });
      expect(res.status).toBe(422);
      const byField = Object.fromEntries((res.body.detail as Array<{ loc: string[]; msg: string }>).map((d) => [d.loc[1], d.msg]));
      expect(byField).toEqual({
        name: CONTACT_MESSAGES.nameRequired,
        email: CONTACT_MESSAGES.emailInvalid,
        message: CONTACT_MESSAGES.messageRequired,
        extra: CONTACT_MESSAGES.unknownField,
      });
      expect((await server.http.post('/api/site/contact', '[1]')).status).toBe(422);
      expect((await server.http.post('/api/site/contact', { ...valid, message: 'x'.repeat(5001) })).body.detail[0].msg).toBe(CONTACT_MESSAGES.messageTooLong);
    });

    it('limits each address to 5 messages an hour (refused ones do not count)', async () => {
      // The first test sent one message from this address; the 422s above were not counted.
      const statuses: number[] = [];
      for (let i = 0; i < 5; i += 1) statuses.push((await server.http.post('/api/site/contact', { ...valid, subject: `try ${i}` })).status);
      expect(statuses).toEqual([202, 202, 202, 202, 429]);
      const limited = await server.http.post('/api/site/contact', valid);
      expect(limited.body).toEqual({ detail: CONTACT_MESSAGES.rateLimited });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    });
  });
});
