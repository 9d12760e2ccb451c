import type { Page } from 'playwright-core';
import { signUpAndLogin, type SignedInAccount } from '../support/accounts';
import { startTestServer, type TestServer } from '../support/test-server';
import { launchBrowser, type Browser } from './support/browser';
import { setSessionCookies } from './support/session-cookies';
import { buildWebApp } from './support/web-build';

jest.setTimeout(120_000);

interface OutboxEntry {
  to: string;
  subject: string;
  text: string;
}

/**
 * Team accounts end to end in Chromium against the real backend: an owner
 * makes a team account and invites a viewer from the Team section, the viewer
 * joins through the mailed link and sees the team's jobs and nothing to
 * change, and loses the account the moment the owner removes them.
 */
describe('team accounts (browser)', () => {
  let server: TestServer;
  let ownerBrowser: Browser;
  let viewerBrowser: Browser;
  let owner: SignedInAccount;
  let viewer: SignedInAccount;

  beforeAll(async () => {
    server = await startTestServer({ WEB_DIST_DIR: buildWebApp() });
    owner = await signUpAndLogin(server, { name: 'Grace Owner' });
    viewer = await signUpAndLogin(server, { name: 'Linus Viewer' });
    ownerBrowser = await launchBrowser(server.baseUrl);
    viewerBrowser = await launchBrowser(server.baseUrl);
    await setSessionCookies(ownerBrowser.context, server.baseUrl, owner);
    await setSessionCookies(viewerBrowser.context, server.baseUrl, viewer);
  }, 180_000);
  afterAll(async () => {
    await ownerBrowser?.close();
    await viewerBrowser?.close();
    await server?.close();
  });

  const picker = (page: Page) => page.getByRole('banner').getByLabel('Account');
  /** The link of the invitation mailed to `email` (the invitation is mailed before its request is answered). */
  const invitationLink = async (email: string): Promise<string> => {
    const outbox = await server.http.get<OutboxEntry[]>('/api/dev/outbox');
    const mail = outbox.body.find((m) => m.to === email && m.subject.includes('invited'));
    const link = mail?.text.split('\n').find((line) => line.includes('#token='));
    if (!link) throw new Error(`no invitation mailed to ${email}`);
    return link.trim();
  };

  it('an owner makes a team and invites a viewer, who joins by the mailed link, reads the team’s jobs and is cut off when removed', async () => {
    const page = await ownerBrowser.newPage();
    await page.goto('/dashboard/team');
    await page.getByRole('heading', { level: 1, name: 'Team' }).waitFor();
    await page.getByLabel('Team account name').fill('Ops Team');
    await page.getByRole('button', { name: 'Create Team Account' }).click();
    await page.waitForURL('**/dashboard');
    expect(await picker(page).locator('option:checked').textContent()).toBe('Ops Team (owner)');

    // A job made in the team account (the API acts in the account the header names) shows there, not in the personal account.
    const accounts = await server.http.get<Array<{ id: string; name: string }>>('/api/accounts', { token: owner.accessToken });
    const team = accounts.body.find((a) => a.name === 'Ops Team')!;
    const created = await server.http.post('/api/jobs', { name: 'ops-nightly', url: 'https://example.com/nightly', cron_expression: '0 3 * * *' }, { token: owner.accessToken, headers: { 'X-Cronbeam-Account': team.id } });
    expect(created.status).toBe(200);
    await page.goto('/dashboard/jobs');
    await page.getByRole('row').filter({ hasText: 'ops-nightly' }).waitFor();

    await page.goto('/dashboard/team');
    await page.getByLabel('Email address').fill(viewer.email);
    await page.getByLabel('Role', { exact: true }).selectOption('viewer');
    await page.getByRole('button', { name: 'Send Invitation' }).click();
    await page.getByRole('table', { name: 'Open invitations' }).getByRole('cell', { name: viewer.email, exact: true }).waitFor();

    const link = new URL(await invitationLink(viewer.email));
    const viewerPage = await viewerBrowser.newPage();
    await viewerPage.goto(`${link.pathname}${link.hash}`);
    await viewerPage.getByRole('button', { name: 'Join Ops Team' }).click();
    await viewerPage.waitForURL('**/dashboard');
    expect(await picker(viewerPage).locator('option:checked').textContent()).toBe('Ops Team (viewer)');
    await viewerPage.getByRole('banner').getByText('Read only').waitFor();
    await viewerPage.goto('/dashboard/jobs');
    await viewerPage.getByRole('row').filter({ hasText: 'ops-nightly' }).waitFor();
    await viewerPage.goto('/dashboard/team');
    const members = viewerPage.getByRole('table', { name: 'Members' });
    await members.getByRole('cell', { name: owner.email, exact: true }).waitFor();
    expect(await members.getByRole('button').count()).toBe(0);
    expect(await members.getByRole('combobox').count()).toBe(0);

    // The owner removes the viewer: their next page load no longer offers the account.
    await page.reload();
    const ownerMembers = page.getByRole('table', { name: 'Members' });
    await ownerMembers.getByRole('button', { name: `Remove ${viewer.email}` }).click();
    await page.getByRole('button', { name: 'Remove Member' }).click();
    await ownerMembers.getByRole('cell', { name: viewer.email, exact: true }).waitFor({ state: 'detached' });
    const refused = await server.http.get('/api/jobs', { token: viewer.accessToken, headers: { 'X-Cronbeam-Account': team.id } });
    expect(refused.status).toBe(404);
    // The app finds the chosen account gone and starts again in the personal one.
    await viewerPage.goto('/dashboard/jobs');
    await viewerPage.waitForURL((url) => url.pathname === '/dashboard');
    await viewerPage.goto('/dashboard/jobs');
    await viewerPage.getByRole('heading', { level: 1, name: 'Cron Jobs' }).waitFor();
    expect(await picker(viewerPage).count()).toBe(0);
    expect(await viewerPage.getByRole('row').filter({ hasText: 'ops-nightly' }).count()).toBe(0);
  });
});
