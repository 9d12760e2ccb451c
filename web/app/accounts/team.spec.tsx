import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AccountInvitation, AccountMember, AccountSummary } from '@cronbeam/shared/accounts/account-rules';
import { MemoryRouter } from 'react-router-dom';
import { accountsApi } from '../api/accounts-api';
import { useSession } from '../session/session-store';
import { installFakeApi } from '../test-support/fake-api';
import { AccountSwitcher } from './account-switcher';
import { appRestart, useAccounts } from './accounts-store';
import { useCurrentAccount } from './current-account';
import InvitationAcceptPage from './invitation-accept-page';
import TeamSection from './team-section';

const personal: AccountSummary = { id: 'u1', name: 'Ada', personal: true, role: 'owner', created_at: '2026-11-01T00:00:00.000Z' };
const team = (role: AccountSummary['role']): AccountSummary => ({ id: 'a2', name: 'Ops', personal: false, role, created_at: '2026-11-20T00:00:00.000Z' });
const member = (user_id: string, role: AccountMember['role'], email: string): AccountMember => ({ user_id, email, name: email.split('@')[0]!, role, joined_at: '2026-11-20T00:00:00.000Z' });
const members = [member('u9', 'owner', 'grace@example.com'), member('u1', 'admin', 'ada@example.com'), member('u3', 'viewer', 'linus@example.com')];
const invitation: AccountInvitation = { id: 'i1', email: 'new@example.com', role: 'editor', invited_by: 'u1', expires_at: '2026-12-04T00:00:00.000Z', created_at: '2026-11-27T00:00:00.000Z' };

describe('team accounts in the web app', () => {
  let restarts: string[];
  beforeEach(() => {
    useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 });
    useCurrentAccount.getState().select(null);
    useAccounts.setState({ accounts: [], loaded: false });
    restarts = [];
    appRestart.to = (path) => void restarts.push(path);
  });

  it('the top bar picks the account: hidden with the personal account alone, and a choice is sent on every later call', async () => {
    const alone = installFakeApi({ 'GET /accounts': { status: 200, body: [personal] } });
    const { unmount } = render(<AccountSwitcher />);
    await waitFor(() => expect(alone.calls).toHaveLength(1));
    expect(screen.queryByLabelText('Account')).not.toBeInTheDocument();
    unmount();

    installFakeApi({ 'GET /accounts': { status: 200, body: [personal, team('viewer')] } });
    render(<AccountSwitcher />);
    const picker = await screen.findByLabelText('Account');
    expect(within(picker).getAllByRole('option').map((o) => o.textContent)).toEqual(['Ada (personal)', 'Ops (viewer)']);
    await userEvent.selectOptions(picker, 'a2');
    expect(restarts).toEqual(['/dashboard']);
    expect(useCurrentAccount.getState().accountId).toBe('a2');

    const later = installFakeApi({ 'GET /accounts': { status: 200, body: [personal, team('viewer')] } });
    await accountsApi.list();
    expect(later.calls[0]!.headers['x-cronbeam-account']).toBe('a2');
  });

  it('falls back to the personal account when the chosen one is gone (the member was removed), and signing out forgets the choice', async () => {
    useCurrentAccount.getState().select('a2');
    installFakeApi({ 'GET /accounts': { status: 200, body: [personal] } });
    await useAccounts.getState().load();
    expect(useCurrentAccount.getState().accountId).toBeNull();
    expect(restarts).toEqual(['/dashboard']);

    useCurrentAccount.getState().select('a2');
    useSession.getState().signOut();
    expect(useCurrentAccount.getState().accountId).toBeNull();
  });

  it('an admin changes a role, removes a member after confirmation, invites and revokes; the server’s refusal is shown', async () => {
    useCurrentAccount.getState().select('a2');
    const { calls } = installFakeApi({
      'GET /accounts': { status: 200, body: [personal, team('admin')] },
      'GET /accounts/a2/members': { status: 200, body: members },
      'GET /accounts/a2/invitations': { status: 200, body: [] },
      'PATCH /accounts/a2/members/u3': { status: 200, body: { message: 'Role changed' } },
      'DELETE /accounts/a2/members/u3': { status: 200, body: { message: 'Member removed' } },
      'POST /accounts/a2/invitations': (call) =>
        (call.body as { email: string }).email === 'ada@example.com'
          ? { status: 409, body: { detail: 'This address already belongs to a member of the account' } }
          : { status: 200, body: invitation },
      'DELETE /accounts/a2/invitations/i1': { status: 200, body: { message: 'Invitation revoked' } },
    });
    render(<TeamSection />);
    const table = await screen.findByRole('table', { name: 'Members' });
    await within(table).findByRole('cell', { name: 'linus@example.com' });
    // Nobody changes the owner's role or removes the owner.
    expect(within(table).queryByLabelText('Role of grace@example.com')).not.toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: 'Remove grace@example.com' })).not.toBeInTheDocument();

    await userEvent.selectOptions(within(table).getByLabelText('Role of linus@example.com'), 'editor');
    await waitFor(() => expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ role: 'editor' }));

    await userEvent.click(within(table).getByRole('button', { name: 'Remove linus@example.com' }));
    await userEvent.click(screen.getByRole('button', { name: 'Remove Member' }));
    await waitFor(() => expect(within(table).queryByRole('cell', { name: 'linus@example.com' })).not.toBeInTheDocument());

    await userEvent.type(screen.getByLabelText('Email address'), 'ada@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));
    expect(await screen.findByText('This address already belongs to a member of the account')).toBeInTheDocument();

    await userEvent.clear(screen.getByLabelText('Email address'));
    await userEvent.type(screen.getByLabelText('Email address'), 'new@example.com');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'editor');
    await userEvent.click(screen.getByRole('button', { name: 'Send Invitation' }));
    const open = await screen.findByRole('table', { name: 'Open invitations' });
    expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({ email: 'new@example.com', role: 'editor' });
    await userEvent.click(within(open).getByRole('button', { name: 'Revoke the invitation to new@example.com' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Open invitations' })).not.toBeInTheDocument());
  });

  it('a viewer sees the members and nothing to change', async () => {
    useCurrentAccount.getState().select('a2');
    const { calls } = installFakeApi({
      'GET /accounts': { status: 200, body: [personal, team('viewer')] },
      'GET /accounts/a2/members': { status: 200, body: members },
    });
    render(<TeamSection />);
    const table = await screen.findByRole('table', { name: 'Members' });
    await within(table).findByText('linus@example.com');
    expect(within(table).queryAllByRole('combobox')).toHaveLength(0);
    expect(within(table).queryAllByRole('button')).toHaveLength(0);
    expect(screen.queryByRole('form', { name: 'Invite a member' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.path.endsWith('/invitations'))).toBe(false);
  });

  it('an invitation link shows what it is, asks a signed-out reader to sign in, and joins a signed-in one', async () => {
    window.history.replaceState(null, '', '/invitations/accept#token=tok-123');
    const preview = { account_name: 'Ops', role: 'editor', email: 'ada@example.com', expired: false, used: false };
    useSession.getState().clear();
    installFakeApi({ 'GET /invitations/tok-123': { status: 200, body: preview } });
    const { unmount } = render(<InvitationAcceptPage />, { wrapper: MemoryRouter });
    expect(await screen.findByText('Ops invited ada@example.com as editor.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('link', { name: 'Sign In to Accept' }));
    expect(sessionStorage.getItem('cronbeam.pendingInvitation')).toBe('tok-123');
    unmount();

    useSession.getState().signIn({ access_token: 'a', id_token: 'i', expires_in: 60 });
    const { calls } = installFakeApi({
      'GET /invitations/tok-123': { status: 200, body: preview },
      'POST /invitations/accept': { status: 200, body: team('editor') },
    });
    render(<InvitationAcceptPage />, { wrapper: MemoryRouter });
    await userEvent.click(await screen.findByRole('button', { name: 'Join Ops' }));
    await waitFor(() => expect(restarts).toEqual(['/dashboard']));
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ token: 'tok-123' });
    expect(useCurrentAccount.getState().accountId).toBe('a2');
  });

  it('an expired invitation says so and offers nothing to accept', async () => {
    window.history.replaceState(null, '', '/invitations/accept#token=old');
    installFakeApi({ 'GET /invitations/old': { status: 200, body: { account_name: 'Ops', role: 'viewer', email: 'ada@example.com', expired: true, used: false } } });
    render(<InvitationAcceptPage />, { wrapper: MemoryRouter });
    expect(await screen.findByText(/has expired, was revoked or was already used/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Join/ })).not.toBeInTheDocument();
  });
});
