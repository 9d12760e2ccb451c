import { latestMailedCode, signUpAndLogin } from '../support/accounts';
import { screenshot } from './support/browser';
import { useBrowserSuite } from './support/browser-suite';
import { fakeJwt, setSessionCookies } from './support/session-cookies';

// Jest reads testTimeout only from the top-level config, not from a project entry.
jest.setTimeout(60_000);

/** Sign-in screens against the real backend on its own database, in Chromium. */
describe('sign-in screens (browser)', () => {
  const app = useBrowserSuite();

  it('signs up, verifies with the mailed code, signs in and lands on the dashboard', async () => {
    const email = `ada-${Date.now()}@example.test`;
    await app.page.goto('/signup');
    await screenshot(app.page, 'signup');
    const submit = app.page.getByRole('button', { name: 'Create Account' });
    expect(await submit.isDisabled()).toBe(true);
    await app.page.getByLabel('Full Name').fill('Ada Lovelace');
    await app.page.getByLabel('Email').fill(email);
    expect(await submit.isDisabled()).toBe(true);
    await app.page.getByLabel('Password').fill('correct-horse-battery');
    expect(await submit.isDisabled()).toBe(false);
    await submit.click();

    await app.page.waitForURL(`**/verify?email=${encodeURIComponent(email)}`);
    await app.page.getByText(email).waitFor();
    await screenshot(app.page, 'verify');
    const verify = app.page.getByRole('button', { name: 'Verify Email' });
    expect(await verify.isDisabled()).toBe(true);
    expect(await app.page.getByLabel('Verification code').getAttribute('maxlength')).toBe('6');
    await app.page.getByLabel('Verification code').fill(await latestMailedCode(app.server, email));
    await verify.click();
    await app.page.getByText('Email verified. Redirecting to sign in...').waitFor();

    await app.page.waitForURL(`**/login?email=${encodeURIComponent(email)}`);
    expect(await app.page.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
    await screenshot(app.page, 'login');
    const signIn = app.page.getByRole('button', { name: 'Sign In' });
    expect(await signIn.isDisabled()).toBe(true);
    await app.page.getByLabel('Password').fill('correct-horse-battery');
    await signIn.click();
    await app.page.waitForURL('**/dashboard');
    await app.page.getByRole('button', { name: /Ada Lovelace/ }).waitFor();
    await app.page.getByText('Connected').waitFor();
  });

  it('shows the server message for wrong credentials and keeps the user on /login', async () => {
    const account = await signUpAndLogin(app.server);
    await app.page.goto(`/login?email=${encodeURIComponent(account.email)}`);
    await app.page.getByLabel('Password').fill('not-the-password');
    await app.page.getByRole('button', { name: 'Sign In' }).click();
    await app.page.locator('.alert').filter({ hasText: 'Incorrect email or password' }).waitFor();
    await screenshot(app.page, 'login-error');
    expect(new URL(app.page.url()).pathname).toBe('/login');
  });

  it('shows a wrong verification code and resends a new one', async () => {
    const email = `grace-${Date.now()}@example.test`;
    expect((await app.server.http.post('/api/auth/signup', { name: 'Grace', email, password: 'correct-horse-battery' })).status).toBe(201);
    await app.page.goto(`/verify?email=${encodeURIComponent(email)}`);
    await app.page.getByLabel('Verification code').fill('000000');
    await app.page.getByRole('button', { name: 'Verify Email' }).click();
    await app.page.getByRole('alert').waitFor();
    await app.page.getByRole('button', { name: 'Resend verification code' }).click();
    await app.page.getByText(`A new code was sent to ${email}.`).waitFor();
  });

  it('sends /verify without an address to /signup', async () => {
    await app.page.goto('/verify');
    await app.page.waitForURL('**/signup');
  });

  // Opening /dashboard with an expired identity token is turned away by the host guard (server and app), which
  // clears the session with its own message; 'Session expired. Please log in again.' belongs to the dashboard's
  // periodic expiry check of an open dashboard (use-session-expiry.spec.tsx), which never starts here.
  it('sends an expired session from /dashboard to /login with the session-expired message', async () => {
    const past = Math.floor(Date.now() / 1000) - 60;
    await setSessionCookies(app.browser.context, app.server.baseUrl, {
      accessToken: 'expired',
      idToken: fakeJwt({ sub: 'u1', email: 'old@example.test', name: 'Old', exp: past }),
    });
    await app.page.goto('/dashboard');
    await app.page.waitForURL('**/login?error=*');
    await app.page.locator('.alert').filter({ hasText: 'Your session has expired. Please login again.' }).waitFor();
    await screenshot(app.page, 'login-session-expired');
    const cookies = await app.browser.context.cookies();
    expect(cookies.find((c) => c.name === 'idToken')).toBeUndefined();
  });

  it('ends the session when the API answers 401 and says so on /login', async () => {
    const future = Math.floor(Date.now() / 1000) + 3600;
    await setSessionCookies(app.browser.context, app.server.baseUrl, {
      accessToken: 'not-a-valid-access-token',
      idToken: fakeJwt({ sub: 'u1', email: 'mallory@example.test', exp: future }),
    });
    await app.page.goto('/dashboard');
    await app.page.waitForURL('**/login?error=*');
    await app.page.locator('.alert').filter({ hasText: 'Your session has expired. Please login again.' }).waitFor();
    expect((await app.browser.context.cookies()).find((c) => c.name === 'accessToken')).toBeUndefined();
  });

  it('shows the failure of a social callback without a code, then returns to login', async () => {
    await app.page.goto('/auth/callback');
    await app.page.getByRole('heading', { name: 'Authentication Failed' }).waitFor();
    await app.page.getByText('Redirecting to login page...').waitFor();
    await screenshot(app.page, 'auth-callback-failed');
    await app.page.waitForURL('**/login?error=*');
    await app.page.locator('.alert').filter({ hasText: 'Authentication failed: No authorization code found' }).waitFor();
  });

  it('logs out from the user menu and clears the session cookies', async () => {
    const account = await signUpAndLogin(app.server, { name: 'Linus Torvalds' });
    await setSessionCookies(app.browser.context, app.server.baseUrl, account);
    await app.page.goto('/dashboard');
    await app.page.getByRole('button', { name: /Linus Torvalds/ }).click();
    await screenshot(app.page, 'user-menu');
    await app.page.getByRole('menuitem', { name: 'Logout' }).click();
    await app.page.waitForURL('**/login');
    const names = (await app.browser.context.cookies()).map((c) => c.name);
    expect(names).not.toContain('accessToken');
    expect(names).not.toContain('idToken');
  });
});
