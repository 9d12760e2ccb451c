// The fake preload bridge must exist before the app's modules choose their platform.
import { fakeBridge } from '../test-support/fake-desktop-bridge';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { LoginPage } from '../auth/login-page';
import { useSession } from '../session/session-store';
import { fakeJwt, installFakeApi } from '../test-support/fake-api';
import { DesktopSessionStorage } from './desktop-session-storage';
import DesktopSettingsPage, { TOKEN_STORE_TEXT } from './desktop-settings-page';
import { startDesktopPlatform } from './desktop-start';
import { apiBase, sessionStorageAdapter } from './platform';

const idToken = fakeJwt({ sub: 'u1', email: 'ada@example.com', name: 'Ada', exp: Math.floor(Date.now() / 1000) + 3600 });

describe('desktop platform (renderer side, with a fake preload bridge)', () => {
  beforeAll(() => startDesktopPlatform());
  beforeEach(() => {
    fakeBridge.calls.length = 0;
    localStorage.clear();
  });

  it('takes the API base from the preload and keeps the session through the bridge', () => {
    expect(apiBase()).toBe('app://cronbeam/api');
    expect(sessionStorageAdapter()).toBeInstanceOf(DesktopSessionStorage);
  });

  it('sign-in stores the session through the bridge: no token in cookies or localStorage', async () => {
    const { calls } = installFakeApi({
      'POST /auth/login': { status: 200, body: { access_token: 'acc-1', id_token: idToken, refresh_token: 'ref-1', expires_in: 3600, token_type: 'Bearer' } },
    });
    render(
      <MemoryRouter initialEntries={['/login']}>
        <Routes>
          <Route path="/login" element={<LoginPage />} />
          <Route path="/dashboard" element={<p>dashboard</p>} />
        </Routes>
      </MemoryRouter>,
    );
    await userEvent.type(screen.getByLabelText('Email'), 'ada@example.com');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    await screen.findByText('dashboard');

    expect(calls[0]).toMatchObject({ method: 'POST', path: '/auth/login' });
    expect((globalThis.fetch as jest.Mock).mock.calls[0][0]).toBe('app://cronbeam/api/auth/login');
    const sets = fakeBridge.calls.filter(([channel]) => channel === 'session:set').map(([, arg]) => arg);
    expect(sets).toEqual(
      expect.arrayContaining([
        { key: 'accessToken', value: 'acc-1' },
        { key: 'idToken', value: idToken },
        { key: 'refreshToken', value: 'ref-1' },
        expect.objectContaining({ key: 'tokenExpiry' }),
      ]),
    );
    expect(document.cookie).toBe('');
    expect(localStorage.length).toBe(0);
    expect(useSession.getState().accessToken).toBe('acc-1');
  });

  it("follows main's session: a refresh replaces the tokens, a sign-out from the tray clears them", async () => {
    fakeBridge.emit('session:changed', { accessToken: 'acc-2', idToken, refreshToken: 'ref-2', tokenExpiry: String(Date.now() + 3_600_000) });
    expect(useSession.getState().accessToken).toBe('acc-2');
    fakeBridge.emit('session:changed', {});
    expect(useSession.getState().accessToken).toBeNull();
    expect(useSession.getState().idToken).toBeNull();
  });

  it('settings: shows which store keeps the session, saves the server URL, and shows main’s validation message', async () => {
    render(
      <MemoryRouter>
        <DesktopSettingsPage />
      </MemoryRouter>,
    );
    expect(await screen.findByTestId('token-store')).toHaveTextContent(TOKEN_STORE_TEXT['safe-storage']);
    const input = screen.getByLabelText('Server URL');
    await waitFor(() => expect(input).toHaveValue('https://app.cronbeam.io'));

    fakeBridge.failNext('settings:set-server-url', 'Server URL must use https (http only for localhost)');
    await userEvent.clear(input);
    await userEvent.type(input, 'http://cron.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Server URL must use https \(http only for localhost\)$/);

    await userEvent.clear(input);
    await userEvent.type(input, 'https://cron.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Saved.')).toBeInTheDocument();
    expect(fakeBridge.calls).toContainEqual(['settings:set-server-url', { url: 'https://cron.example.com' }]);
  });

  it('settings: mutes a job of the signed-in account through main', async () => {
    const jobId = '7d1f1e4e-3a55-4c3e-9b0f-2a0e6c1d9e11';
    fakeBridge.emit('session:changed', { accessToken: 'acc-3', idToken, refreshToken: 'ref-3', tokenExpiry: String(Date.now() + 3_600_000) });
    const { calls } = installFakeApi({ 'GET /jobs': { status: 200, body: [{ job_id: jobId, name: 'nightly-backup', status: 'failed' }] } });
    render(
      <MemoryRouter>
        <DesktopSettingsPage />
      </MemoryRouter>,
    );
    const mute = await screen.findByRole('checkbox', { name: 'Mute nightly-backup' });
    expect(mute).not.toBeChecked();
    expect(calls[0].headers).toMatchObject({ authorization: 'Bearer acc-3' });
    await userEvent.click(mute);
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Mute nightly-backup' })).toBeChecked());
    expect(fakeBridge.calls).toContainEqual(['settings:set-job-muted', { jobId, muted: true }]);
  });
});
