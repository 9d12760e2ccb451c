import { REFUSED_WHEN_RUN } from '../../backend/src/modules/jobs/job-target-check';
import { latestMailedCode } from '../support/accounts';
import { until } from '../support/until';
import { DESKTOP, MOBILE } from './support/browser';
import { useBrowserSuite } from './support/browser-suite';

jest.setTimeout(60_000);

const ACTIVE_JOBS_HINT = 'Jobs that will run again: not paused and not held back by the plan quota, whatever their last result.';

/**
 * What a new customer meets between sign-up and a first alert, at 1366 px and
 * 375 px: no dead ends in onboarding, messages in the app's own words, the
 * side menu and dialogs the spec names, and the rough edges of forms and
 * layout. One server (a development one: the dev outbox is served, private
 * targets are refused when jobs run) and one browser for all of it.
 */
describe('the new customer path (browser)', () => {
  const app = useBrowserSuite();

  /** The page's boxes of the stat cards, grouped into rows by their top edge: the number of cards in each row. */
  async function statCardRows(): Promise<number[]> {
    const tops = await app.page.locator('.stat-card').evaluateAll((cards) => cards.map((card) => Math.round(card.getBoundingClientRect().top)));
    const rows = new Map<number, number>();
    for (const top of tops) rows.set(top, (rows.get(top) ?? 0) + 1);
    return [...rows.keys()].sort((a, b) => a - b).map((top) => rows.get(top)!);
  }

  it('takes an unverified account from the sign-in error to /verify with a new code, and says the code is in the dev outbox', async () => {
    const email = `unverified-${Date.now()}@example.test`;
    expect((await app.server.http.post('/api/auth/signup', { name: 'Ada', email, password: 'correct-horse-battery' })).status).toBe(201);
    await app.page.setViewportSize(MOBILE);
    await app.page.goto(`/login?email=${encodeURIComponent(email)}`);
    await app.page.getByLabel('Password').fill('correct-horse-battery');
    await app.page.getByRole('button', { name: 'Sign In' }).click();
    const alert = app.page.getByRole('alert').filter({ hasText: 'User is not confirmed.' });
    expect(await alert.getByRole('link', { name: 'Enter the verification code' }).getAttribute('href')).toBe(`/verify?email=${encodeURIComponent(email)}`);

    await alert.getByRole('button', { name: 'Resend verification code' }).click();
    await app.page.waitForURL(`**/verify?email=${encodeURIComponent(email)}`);
    await app.page.getByText(`A new code was sent to ${email}.`).waitFor();
    const hint = app.page.getByRole('status').filter({ hasText: 'This development server does not send mail: the code is in the dev outbox' });
    expect(await hint.getByRole('link').getAttribute('href')).toBe('/api/dev/outbox');

    await app.page.getByLabel('Verification code').fill(await latestMailedCode(app.server, email));
    await app.page.getByRole('button', { name: 'Verify Email' }).click();
    await app.page.getByText('Email verified. Redirecting to sign in...').waitFor();
  });

  it('states the password rule before sign-up and keeps the app’s own words when the server refuses a short password', async () => {
    await app.page.goto('/signup');
    const password = app.page.getByLabel('Password');
    expect(await app.page.locator(`#${await password.getAttribute('aria-describedby')}`).textContent()).toBe('At least 8 characters.');
    await app.page.getByLabel('Full Name').fill('Shorty');
    await app.page.getByLabel('Email').fill(`shorty-${Date.now()}@example.test`);
    await password.fill('short');
    await app.page.getByRole('button', { name: 'Create Account' }).click();
    expect(await app.page.getByRole('alert').textContent()).toBe('Password must be at least 8 characters');
  });

  it('sends a signed-in user from "Go to Dashboard" and /login to the dashboard; after a sign-out of their own, /dashboard asks to sign in without "session expired"', async () => {
    await app.signIn('Grace Hopper');
    await app.page.goto('/guides');
    await app.page.getByRole('link', { name: 'Go to Dashboard' }).click();
    await app.page.waitForURL('**/dashboard');
    await app.page.goto('/login');
    await app.page.waitForURL('**/dashboard');

    await app.page.getByRole('button', { name: /Grace Hopper/ }).click();
    await app.page.getByRole('menuitem', { name: 'Logout' }).click();
    await app.page.waitForURL('**/login');
    // Back in the browser's history (the app's own guard), then a fresh load of /dashboard (the server's).
    await app.page.goBack();
    await app.page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(app.page.url()).searchParams.get('error')).toBeNull();
    await app.page.goto('/dashboard');
    await app.page.waitForURL((url) => url.pathname === '/login');
    expect(new URL(app.page.url()).search).toBe('');
    await app.page.getByRole('button', { name: 'Sign In' }).waitFor();
    expect(await app.page.getByText('Your session has expired').count()).toBe(0);
  });

  it('says a wrong current password in Change Password is the current password', async () => {
    await app.signIn();
    await app.page.goto('/profile');
    await app.page.getByLabel('Current password').fill('not-my-password');
    await app.page.getByLabel('New password', { exact: true }).fill('a-new-long-password');
    await app.page.getByLabel('Confirm new password').fill('a-new-long-password');
    await app.page.getByRole('button', { name: 'Change Password' }).click();
    expect(await app.page.getByRole('alert').textContent()).toBe('The current password is not correct');
  });

  it('warns on leaving the URL of a job this server would refuse to run', async () => {
    await app.signIn();
    await app.page.goto('/dashboard/create');
    const url = app.page.getByLabel('URL');
    await url.fill('http://localhost:3000/hook');
    await app.page.getByLabel('HTTP Method').focus();
    await app.page.getByText(REFUSED_WHEN_RUN).waitFor();
    await url.fill('https://example.com/hook');
    await app.page.getByLabel('HTTP Method').focus();
    await app.page.getByText(REFUSED_WHEN_RUN).waitFor({ state: 'detached' });
    // The option that sends alerts has one name in the job form and on the alert channels page.
    await app.page.getByLabel('Alert me when a run fails').waitFor();
  });

  it('offers feedback and free support in the side menu, explains Active Jobs, lays the cards out 4 + 4, and opens the quota dialog for a clone at the job limit', async () => {
    const account = await app.signIn();
    for (const name of ['first-job', 'second-job']) {
      expect((await app.server.http.post('/api/jobs', { name, url: 'https://example.com/hook', cron_expression: '0 3 * * *' }, { token: account.accessToken })).status).toBe(200);
    }
    await app.page.goto('/dashboard');
    const menu = app.page.getByRole('navigation', { name: 'Dashboard sections' });
    const feedback = menu.getByRole('link', { name: 'Send feedback' });
    expect([await feedback.getAttribute('href'), await feedback.getAttribute('target')]).toEqual(['/contact?subject=Feedback', '_blank']);
    expect(await menu.getByRole('link', { name: 'Book a free support call' }).getAttribute('href')).toBe('/contact?subject=Free+support+call');
    expect(await app.page.locator('.stat-card').filter({ hasText: 'Active Jobs' }).getAttribute('title')).toBe(ACTIVE_JOBS_HINT);
    await app.page.locator('.stat-card').filter({ hasText: 'Plan' }).getByText('Free').waitFor();
    expect(await statCardRows()).toEqual([4, 4]);
    await app.page.setViewportSize(MOBILE);
    expect(await statCardRows()).toEqual([2, 2, 2, 2]);
    await app.page.setViewportSize(DESKTOP);

    await app.page.goto('/dashboard/jobs');
    await app.page.getByRole('button', { name: 'Clone first-job' }).click();
    await app.page.getByRole('dialog', { name: 'Job Quota Exceeded' }).waitFor();
    expect(await app.page.getByText('Failed to clone job').count()).toBe(0);

    await app.page.goto('/contact?subject=Feedback');
    // Read through Playwright (a page function given as text would be evaluated, which the Content-Security-Policy forbids).
    await until(() => app.page.locator('#contact-subject').inputValue(), (subject) => subject === 'Feedback', 10_000);
  });

  it('alert channels: plain words for a bad address, a Copy button for the secret, a confirmation before deleting, and toasts clear of the user menu', async () => {
    await app.signIn('Linus Torvalds');
    await app.page.goto('/dashboard/alerts');
    await app.page.getByText('Jobs with “Alert me when a run fails” ticked in their form').waitFor();
    await app.page.getByLabel('Channel type').selectOption('email');
    await app.page.getByLabel('Channel name').fill('bad-mail');
    await app.page.getByLabel('Email address', { exact: true }).fill('not-an-address');
    await app.page.getByRole('button', { name: 'Add channel' }).click();
    expect(await app.page.getByRole('alert').textContent()).toBe('Enter a valid email address, like ops@example.com.');

    for (const size of [DESKTOP, MOBILE]) {
      await app.page.setViewportSize(size);
      const name = `hook-${size.width}`;
      await app.page.getByLabel('Channel type').selectOption('webhook');
      await app.page.getByLabel('Channel name').fill(name);
      await app.page.getByLabel('Webhook URL').fill('https://example.com/alerts');
      await app.page.getByRole('button', { name: 'Add channel' }).click();
      const toast = app.page.locator('.Toastify__toast').filter({ hasText: `Alert channel '${name}' added` });
      await toast.waitFor();
      const [toastBox, menuBox] = [await toast.boundingBox(), await app.page.locator('.user-menu-trigger').boundingBox()];
      expect(toastBox!.y >= menuBox!.y + menuBox!.height || toastBox!.x >= menuBox!.x + menuBox!.width).toBe(true);
      await toast.getByRole('button', { name: 'close' }).click();
      await toast.waitFor({ state: 'detached' });
    }
    const secret = (await app.page.getByTestId('webhook-secret').locator('code').textContent())!;
    await app.page.getByRole('button', { name: 'Copy signing secret' }).click();
    expect(await app.page.evaluate('navigator.clipboard.readText()')).toBe(secret);

    const row = app.page.getByRole('row').filter({ hasText: 'hook-375' });
    await row.getByRole('button', { name: 'Delete hook-375' }).click();
    const confirm = app.page.getByRole('dialog', { name: 'Delete alert channel' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(await row.count()).toBe(1);
    await row.getByRole('button', { name: 'Delete hook-375' }).click();
    await confirm.getByRole('button', { name: 'Delete Channel' }).click();
    await row.waitFor({ state: 'detached' });
  });

  it('at 375 px: a skip link first, the closed menu out of the Tab order, the API-key Delete in view, the Fly hint in plain text', async () => {
    const account = await app.signIn();
    expect((await app.server.http.post('/api/api-keys/generate', { name: 'a-rather-long-key-name-for-ci' }, { token: account.accessToken })).status).toBe(200);
    await app.page.setViewportSize(MOBILE);
    await app.page.goto('/dashboard');
    await app.page.getByRole('heading', { name: 'Dashboard' }).first().waitFor();
    await app.page.keyboard.press('Tab');
    expect(await app.page.evaluate('document.activeElement.textContent')).toBe('Skip to content');
    await app.page.keyboard.press('Enter');
    expect(await app.page.evaluate('document.activeElement.id')).toBe('main-content');

    // Closed, the menu is hidden from the accessibility tree too (getByRole would not find it): found by its class.
    const firstLink = app.page.locator('nav.side-nav a').first();
    const focusable = async () => {
      await firstLink.focus();
      return (await app.page.evaluate("document.activeElement === document.querySelector('nav.side-nav a')")) as boolean;
    };
    expect(await focusable()).toBe(false);
    await app.page.getByRole('button', { name: 'Open menu' }).click();
    await app.page.locator('nav.side-nav').waitFor({ state: 'visible' }); // Playwright counts visibility: hidden as not visible
    expect(await focusable()).toBe(true);

    await app.page.goto('/profile');
    const remove = app.page.getByRole('button', { name: 'Delete API key a-rather-long-key-name-for-ci' });
    await remove.waitFor();
    const box = (await remove.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(MOBILE.width);

    await app.page.goto('/dashboard/n8n');
    const hint = app.page.getByText('Create one with');
    expect(await hint.textContent()).not.toContain('`');
    expect(await hint.locator('code').textContent()).toBe('fly tokens create org');
  });

  it('lists the API docs’ contents without splitting an entry across columns', async () => {
    await app.page.goto('/api-documentation');
    const rects = await app.page.locator('.site-toc li').evaluateAll((items) => items.map((item) => item.getClientRects().length));
    expect(rects.length).toBeGreaterThan(5);
    expect(rects.every((count) => count === 1)).toBe(true);
  });
});
