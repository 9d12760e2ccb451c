import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { SESSION_EXPIRED_MESSAGE } from '@cronbeam/shared/site/host-guard';
import { startTestServer, type TestServer } from '../support/test-server';
import { seriousViolations } from './support/axe';
import { DESKTOP, launchBrowser, MOBILE, screenshot, type Browser } from './support/browser';
import { fakeJwt } from './support/session-cookies';
import { buildWebApp } from './support/web-build';

jest.setTimeout(180_000);

// Chromium sends every http:// request to the test server (--proxy-server), so
// the pages can be visited under the configured host names on port 80.
const APP = 'app.cronbeam.test';
const MARKETING = 'www.cronbeam.test';
const SITE = `http://${MARKETING}`;
const PAGES = [
  '/', '/pricing', '/terms', '/privacy', '/refund', '/contact', '/api-documentation', '/guides',
  '/guides/mcp-introduction', '/guides/monitor-n8n', '/guides/deploy-n8n', '/guides/cronbeam-vs-traditional-tools',
  '/guides/webhooks', '/guides/ci-cd', '/guides/data-pipeline-monitoring', '/no-such-page',
];
const HOME_JS_BUDGET_BYTES = 100 * 1024;
const LOGIN_JS_BUDGET_BYTES = 200 * 1024;
/** The text a reader sees: whitespace dropped, so layout line breaks do not count. */
const squeeze = (text: string) => text.replace(/\s+/g, '');

function rawText(html: string): string {
  const main = html.match(/<main[^>]*>([\s\S]*)<\/main>/)?.[1] ?? '';
  return main
    .replace(/<!-- -->/g, '')
    .replace(/<[^>]+>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&nbsp;/g, '\u00a0')
    .replace(/&amp;/g, '&');
}

describe('public site (browser)', () => {
  let server: TestServer;
  let browser: Browser;

  /** The page's HTML as a crawler gets it: one GET, no JavaScript. */
  function crawl(path: string): Promise<{ status: number; html: string }> {
    const { port } = new URL(server.baseUrl);
    return new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path, headers: { host: MARKETING } }, (res) => {
        let html = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (html += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, html }));
      });
      req.on('error', reject);
      req.end();
    });
  }

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp(), APP_HOST: APP, MARKETING_HOST: MARKETING });
    const port = new URL(server.baseUrl).port;
    browser = await launchBrowser(SITE, [
      `--proxy-server=http://127.0.0.1:${port}`,
      '--proxy-bypass-list=<-loopback>',
      // Secure contexts, as on HTTPS in production: the copy buttons need the clipboard API.
      `--unsafely-treat-insecure-origin-as-secure=${SITE},http://${APP}`,
    ]);
    for (const origin of [SITE, `http://${APP}`]) await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('hydrates every public page without errors, with the text a crawler sees, and no serious or critical axe violation at desktop width and 375 px', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && !/status of 404/.test(message.text())) errors.push(`${page.url()}: ${message.text()}`);
    });
    const findings: Record<string, string[]> = {};
    for (const path of PAGES) {
      const raw = await crawl(path);
      expect({ path, status: raw.status }).toEqual({ path, status: path === '/no-such-page' ? 404 : 200 });
      await page.setViewportSize(DESKTOP);
      await page.goto(path, { waitUntil: 'networkidle' });
      // Hydrated: React has attached to the prerendered root.
      await page.waitForFunction("Object.keys(document.getElementById('root') ?? {}).some((k) => k.startsWith('__reactContainer'))");
      expect({ path, text: squeeze(await page.locator('main').textContent() ?? '') }).toEqual({ path, text: squeeze(rawText(raw.html)) });
      for (const size of [DESKTOP, MOBILE]) {
        await page.setViewportSize(size);
        const found = await seriousViolations(page);
        if (found.length > 0) findings[`${path} @${size.width}px`] = found;
      }
      await screenshot(page, `site${path === '/' ? '-home' : path.replace(/\//g, '-')}`);
    }
    expect(findings).toEqual({});
    expect(errors).toEqual([]);
    await page.close();
  });

  it(`ships at most ${HOME_JS_BUDGET_BYTES / 1024} KB of gzipped JavaScript to a first visit of /, and /login stays under ${LOGIN_JS_BUDGET_BYTES / 1024} KB`, async () => {
    const measure = async (url: string) => {
      const page = await browser.newPage();
      const scripts: Promise<Buffer>[] = [];
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script') scripts.push(response.body());
      });
      await page.goto(url, { waitUntil: 'networkidle' });
      const bytes = (await Promise.all(scripts)).reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0);
      await page.close();
      return { files: scripts.length, bytes };
    };
    const home = await measure('/');
    const login = await measure(`http://${APP}/login`);
    console.log(`JavaScript gzipped: / ${(home.bytes / 1024).toFixed(1)} KB in ${home.files} files; /login ${(login.bytes / 1024).toFixed(1)} KB in ${login.files} files`);
    expect(home.files).toBeGreaterThan(0);
    expect(home.bytes).toBeLessThanOrEqual(HOME_JS_BUDGET_BYTES);
    expect(login.bytes).toBeLessThanOrEqual(LOGIN_JS_BUDGET_BYTES);
  });

  it('takes the landing page visitor to sign-up and login on the app host', async () => {
    const page = await browser.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Start for Free' }).click();
    await page.waitForURL(`http://${APP}/signup`);
    await page.goto('/');
    await page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await page.waitForURL(`http://${APP}/login`);
    await page.close();
  });

  it('checks the contact form in the browser and sends it', async () => {
    const page = await browser.newPage();
    await page.goto('/contact', { waitUntil: 'networkidle' });
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByText('Name is required').waitFor();
    await page.getByText('Please enter a valid email address').waitFor();
    await page.getByText('Message is required').waitFor();
    expect(await page.getByLabel('Your name').getAttribute('aria-invalid')).toBe('true');
    await page.getByLabel('Your name').fill('Grace Visitor');
    await page.getByLabel('Email address').fill('grace@example.test');
    await page.getByLabel('Message').fill('Do you offer invoices?');
    await page.getByRole('button', { name: 'Send message' }).click();
    await page.getByRole('status').getByText('We answer within 24-48 hours').waitFor();
    await screenshot(page, 'site-contact-sent');
    await page.close();
  });

  it('shows guide toasts top-right, closing after 3 s, paused while hovered or unfocused, dismissed by a drag past 60 % or a click', async () => {
    const page = await browser.newPage();
    await page.goto('/guides/webhooks', { waitUntil: 'networkidle' });
    const copy = page.getByRole('button', { name: 'Copy Create a scheduled webhook' });
    await copy.click();
    const toast = page.locator('.Toastify__toast-container--top-right .Toastify__toast');
    await toast.getByText('Copied to clipboard').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toContain('"name": "weekly-digest"');
    const shownAt = Date.now();
    await toast.waitFor({ state: 'detached', timeout: 10_000 });
    const shownMs = Date.now() - shownAt;
    expect(shownMs).toBeGreaterThan(2_000);
    expect(shownMs).toBeLessThan(6_000);

    // Hovered, it stays past its 3 s; once the pointer leaves, it goes.
    await copy.click();
    await toast.waitFor();
    await toast.hover();
    await page.waitForTimeout(4_000); // the pause itself is what is tested: nothing to poll for
    expect(await toast.count()).toBe(1);
    await page.mouse.move(0, 0);
    await toast.waitFor({ state: 'detached', timeout: 10_000 });

    // While the window has lost focus it stays too.
    await copy.click();
    await toast.waitFor();
    await page.mouse.move(0, 0);
    await page.evaluate("dispatchEvent(new Event('blur'))");
    await page.waitForTimeout(4_000); // as above: the pause is the behaviour under test
    expect(await toast.count()).toBe(1);
    await page.evaluate("dispatchEvent(new Event('focus'))");
    await toast.waitFor({ state: 'detached', timeout: 10_000 });

    // Dragged (to the left: it sits at the right edge) less than 60 % of its width it springs back; further, it is dismissed.
    await copy.click();
    await toast.waitFor();
    // Measured at rest: it enters from beyond the right edge with a bounce, so wait until two reads 100 ms apart agree.
    const restingBox = async () => {
      let last = (await toast.boundingBox())!;
      for (const started = Date.now(); Date.now() - started < 5_000; ) {
        await new Promise((r) => setTimeout(r, 100));
        const now = (await toast.boundingBox())!;
        if (Math.abs(now.x - last.x) < 0.5 && now.x + now.width <= DESKTOP.width) return now;
        last = now;
      }
      return last;
    };
    const box = await restingBox();
    const drag = async (fraction: number) => {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + box.width / 2 + box.width * fraction, box.y + box.height / 2, { steps: 8 });
      // Release only once the toast has followed the pointer (it moves on animation frames, late on a busy machine).
      for (const started = Date.now(); Date.now() - started < 5_000; ) {
        const now = await toast.boundingBox();
        if (now && Math.abs(now.x - (box.x + box.width * fraction)) < box.width * 0.05) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      await page.mouse.up();
    };
    await drag(-0.4);
    // It springs back to where it rested.
    expect(await toast.count()).toBe(1);
    expect(Math.abs((await restingBox()).x - box.x)).toBeLessThan(1);
    await drag(-0.8);
    await toast.waitFor({ state: 'detached', timeout: 2_000 });

    await copy.click();
    await toast.waitFor();
    await toast.click();
    await toast.waitFor({ state: 'detached', timeout: 2_000 });
    await page.close();
  });

  it('applies the host guards on client-side navigation too', async () => {
    const page = await browser.newPage();
    const navigate = (path: string) =>
      page.evaluate(`history.pushState({}, '', ${JSON.stringify(path)}); dispatchEvent(new PopStateEvent('popstate'))`);

    // /pricing is a public page on the marketing host: choosing a paid plan signed out goes to /login, on the app host.
    await page.goto('/pricing', { waitUntil: 'networkidle' });
    await page.getByRole('article', { name: 'Basic' }).getByRole('button', { name: 'Get Basic' }).click();
    await page.waitForURL(`http://${APP}/login?redirect=pricing`);

    // On the app host, an expired identity token ends the session on the way to /dashboard.
    const exp = Math.floor(Date.now() / 1000) - 60;
    // Stored as the app stores it: on the parent domain the hosts share.
    await browser.context.addCookies([{ name: 'idToken', value: fakeJwt({ sub: 'u1', exp }), domain: '.cronbeam.test', path: '/' }]);
    await navigate('/dashboard');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('error') === SESSION_EXPIRED_MESSAGE);
    await page.getByText(SESSION_EXPIRED_MESSAGE).waitFor();
    expect((await browser.context.cookies(`http://${APP}`)).find((c) => c.name === 'idToken')).toBeUndefined();

    // Public pages render inside the app as well.
    await navigate('/terms');
    await page.getByRole('heading', { level: 1, name: 'Terms of Service' }).waitFor();
    expect(await page.title()).toBe('Terms of Service | Cronbeam');
    await page.close();
  });
});
