import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { AUTH_MESSAGES, REAUTHENTICATION_REQUIRED } from '@cronbeam/shared/auth/auth-messages';
import { ApiKeysSection } from '../profile/api-keys-section';
import { useSession } from '../session/session-store';
import { fakeJwt, installFakeApi, type FakeCall } from '../test-support/fake-api';
import { ReauthenticatePrompt } from './recent-authentication';

const STALE = { status: 403, body: { detail: { error: AUTH_MESSAGES.reauthenticationRequired, code: REAUTHENTICATION_REQUIRED, max_age_seconds: 600 } } };
const KEY = { key_id: 'k1', name: 'ci', api_key: 'cb_live_x', user_id: 'u1', created_at: '2026-01-01T00:00:00Z' };
const flush = () => act(async () => undefined);

function renderSection() {
  return render(
    <>
      <ApiKeysSection />
      <ReauthenticatePrompt />
    </>,
  );
}

async function askForKey(name: string) {
  fireEvent.click(screen.getByRole('button', { name: 'Generate New API Key' }));
  fireEvent.change(screen.getByLabelText('Key name'), { target: { value: name } });
  fireEvent.click(screen.getByRole('button', { name: 'Generate' }));
  await flush();
}

describe('a sensitive operation on a stale session', () => {
  beforeEach(() => {
    useSession.getState().signIn({ access_token: 'old-access', id_token: fakeJwt({ name: 'Ada' }), refresh_token: 'old-refresh', expires_in: 3600 });
  });
  afterEach(() => {
    cleanup();
    useSession.getState().clear();
  });

  it('asks for the password, swaps in the fresh tokens and runs the operation again', async () => {
    const generated: FakeCall[] = [];
    const api = installFakeApi({
      'GET /api-keys': { status: 200, body: [] },
      'POST /api-keys/generate': (call) => {
        generated.push(call);
        return call.headers.authorization === 'Bearer new-access' ? { status: 200, body: KEY } : STALE;
      },
      'POST /auth/reauthenticate': (call) =>
        (call.body as { password: string }).password === 'right-password'
          ? { status: 200, body: { access_token: 'new-access', id_token: fakeJwt({ name: 'Ada' }), refresh_token: 'new-refresh', expires_in: 3600, token_type: 'Bearer' } }
          : { status: 400, body: { detail: AUTH_MESSAGES.incorrectCredentials } },
    });
    renderSection();
    await flush();
    await askForKey('ci');

    const dialog = screen.getByRole('dialog', { name: 'Confirm it is you' });
    expect(dialog).toHaveTextContent(AUTH_MESSAGES.reauthenticationRequired);
    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'wrong-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    expect(screen.getByRole('alert')).toHaveTextContent(AUTH_MESSAGES.incorrectCredentials);

    fireEvent.change(screen.getByLabelText('Password'), { target: { value: 'right-password' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm' }));
    await flush();
    await flush();

    const confirm = api.calls.filter((c) => c.path === '/auth/reauthenticate').at(-1)!;
    expect(confirm.body).toEqual({ password: 'right-password', refresh_token: 'old-refresh' });
    expect(useSession.getState().accessToken).toBe('new-access');
    expect(generated.map((c) => c.headers.authorization)).toEqual(['Bearer old-access', 'Bearer new-access']);
    expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).toBeNull();
    expect(screen.getByTestId('new-api-key')).toHaveTextContent('cb_live_x');
  });

  it('leaves the operation refused when the user cancels', async () => {
    installFakeApi({ 'GET /api-keys': { status: 200, body: [] }, 'POST /api-keys/generate': STALE });
    renderSection();
    await flush();
    await askForKey('ci');
    fireEvent.click(screen.getAllByRole('button', { name: 'Cancel' }).at(-1)!);
    await flush();
    expect(screen.queryByRole('dialog', { name: 'Confirm it is you' })).toBeNull();
    expect(useSession.getState().accessToken).toBe('old-access');
  });
});
