import { ASSIGNABLE_ROLES, TEAM_MESSAGES, type AccountInvitation, type AccountMember, type AccountSummary, type AssignableRole } from '@cronbeam/shared/accounts/account-rules';
import { roleAtLeast } from '@cronbeam/shared/accounts/roles';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { withRecentAuthentication } from '../account-security/recent-authentication';
import { errorMessage } from '../api/api-error';
import { accountsApi } from '../api/accounts-api';
import { ConfirmDeleteModal } from '../ui/confirm-delete-modal';
import { formatUtc } from '../ui/format';
import { notify } from '../ui/toasts';
import { switchAccount, useAccounts, useActiveAccount } from './accounts-store';
import './team.css';

/** A new team account: the caller owns it and the app switches to it. */
function NewAccountForm() {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) return setError(TEAM_MESSAGES.nameRequired);
    setBusy(true);
    try {
      switchAccount(await accountsApi.create(name.trim()));
    } catch (failure) {
      setError(errorMessage(failure));
      setBusy(false);
    }
  };
  return (
    <form className="form inline-form" onSubmit={submit} noValidate aria-label="New team account">
      <label htmlFor="new-account-name">Team account name</label>
      <input id="new-account-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? 'new-account-error' : undefined} />
      {error && (
        <p id="new-account-error" className="field-error">
          {error}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Creating...' : 'Create Team Account'}
      </button>
    </form>
  );
}

/** An invitation by email with a role; the server mails a single-use link. */
function InviteForm({ account, onInvited }: { account: AccountSummary; onInvited(invitation: AccountInvitation): void }) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableRole>('editor');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      const invitation = await accountsApi.invite(account.id, email.trim(), role);
      setEmail('');
      setError(null);
      onInvited(invitation);
      notify.success(`Invitation sent to ${invitation.email}`);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="form inline-form" onSubmit={submit} noValidate aria-label="Invite a member">
      <label htmlFor="invite-email">Email address</label>
      <input id="invite-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} aria-invalid={error ? true : undefined} aria-describedby={error ? 'invite-error' : undefined} />
      <label htmlFor="invite-role">Role</label>
      <select id="invite-role" value={role} onChange={(e) => setRole(e.target.value as AssignableRole)}>
        {ASSIGNABLE_ROLES.map((r) => (
          <option key={r} value={r}>
            {r}
          </option>
        ))}
      </select>
      {error && (
        <p id="invite-error" className="field-error">
          {error}
        </p>
      )}
      <button type="submit" className="button button-primary" disabled={busy}>
        {busy ? 'Sending...' : 'Send Invitation'}
      </button>
    </form>
  );
}

/**
 * Team: the account the dashboard acts in, its members and their roles,
 * open invitations, and (for its owner) transfer and deletion. What a role may
 * not do is not offered; the server refuses it anyway.
 */
export default function TeamSection() {
  const account = useActiveAccount();
  const load = useAccounts((s) => s.load);
  const [members, setMembers] = useState<AccountMember[]>([]);
  const [invitations, setInvitations] = useState<AccountInvitation[]>([]);
  const [removing, setRemoving] = useState<AccountMember | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [transferTo, setTransferTo] = useState('');
  const canManage = account ? roleAtLeast(account.role, 'admin') : false;

  const loadTeam = useCallback(async (current: AccountSummary) => {
    try {
      setMembers(await accountsApi.members(current.id));
      setInvitations(roleAtLeast(current.role, 'admin') ? await accountsApi.invitations(current.id) : []);
    } catch (error) {
      notify.error(`Failed to load the team: ${errorMessage(error)}`);
    }
  }, []);

  useEffect(() => {
    load().catch((error: unknown) => notify.error(`Failed to load your accounts: ${errorMessage(error)}`));
  }, [load]);

  useEffect(() => {
    if (account) void loadTeam(account);
  }, [account, loadTeam]);

  if (!account) return null;

  const changeRole = async (member: AccountMember, role: AssignableRole) => {
    try {
      await accountsApi.changeRole(account.id, member.user_id, role);
      setMembers(members.map((m) => (m.user_id === member.user_id ? { ...m, role } : m)));
      notify.success(`${member.name || member.email} is now ${role}`);
    } catch (error) {
      notify.error(`Failed to change the role: ${errorMessage(error)}`);
    }
  };

  const removeMember = async (member: AccountMember) => {
    try {
      await accountsApi.removeMember(account.id, member.user_id);
    } catch (error) {
      notify.error(`Failed to remove the member: ${errorMessage(error)}`);
      return false;
    }
    setMembers(members.filter((m) => m.user_id !== member.user_id));
    notify.success(`${member.name || member.email} removed`);
    return true;
  };

  const revoke = async (invitation: AccountInvitation) => {
    try {
      await accountsApi.revokeInvitation(account.id, invitation.id);
      setInvitations(invitations.filter((i) => i.id !== invitation.id));
      notify.success(`Invitation to ${invitation.email} revoked`);
    } catch (error) {
      notify.error(`Failed to revoke the invitation: ${errorMessage(error)}`);
    }
  };

  const transfer = async (event: FormEvent) => {
    event.preventDefault();
    const member = members.find((m) => m.user_id === transferTo);
    if (!member) return;
    try {
      await withRecentAuthentication(() => accountsApi.transfer(account.id, member.user_id));
      notify.success(`${member.name || member.email} now owns ${account.name}`);
      // The reloaded list gives the account with the caller's new role, and the team is read again for it.
      await load();
    } catch (error) {
      notify.error(`Failed to transfer ownership: ${errorMessage(error)}`);
    }
  };

  const deleteAccount = async () => {
    try {
      await withRecentAuthentication(() => accountsApi.remove(account.id));
    } catch (error) {
      notify.error(`Failed to delete the account: ${errorMessage(error)}`);
      return false;
    }
    const personal = useAccounts.getState().accounts.find((a) => a.personal);
    if (personal) switchAccount(personal);
    return true;
  };

  const others = members.filter((m) => m.role !== 'owner');
  return (
    <section aria-labelledby="team-title" className="section">
      <div className="section-header">
        <div>
          <h1 id="team-title">Team</h1>
          <p className="muted">
            {account.personal ? 'Your personal account. ' : ''}You are <strong>{account.role}</strong> of <strong>{account.name}</strong>. Owners manage billing and the account; admins manage members and every
            resource; editors manage jobs, monitors, channels and their own keys; viewers only read.
          </p>
        </div>
      </div>

      <div className="panel">
        <h2>Members</h2>
        <table className="data-table card-table" aria-label="Members">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {members.map((member) => (
              <tr key={member.user_id}>
                <td data-label="Name" className="strong">
                  {member.name}
                </td>
                <td data-label="Email">{member.email}</td>
                <td data-label="Role">
                  {canManage && member.role !== 'owner' ? (
                    <select aria-label={`Role of ${member.email}`} value={member.role} onChange={(e) => void changeRole(member, e.target.value as AssignableRole)}>
                      {ASSIGNABLE_ROLES.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>
                  ) : (
                    member.role
                  )}
                </td>
                <td data-label="Joined">{formatUtc(member.joined_at)}</td>
                <td data-label="Actions">
                  {canManage && member.role !== 'owner' && (
                    <button type="button" className="button button-small button-danger-outline" onClick={() => setRemoving(member)}>
                      Remove<span className="visually-hidden"> {member.email}</span>
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>

      {canManage && (
        <div className="panel">
          <h2>Invitations</h2>
          <InviteForm account={account} onInvited={(invitation) => setInvitations([...invitations.filter((i) => i.id !== invitation.id), invitation])} />
          {invitations.length === 0 ? (
            <p className="empty-state">No open invitations.</p>
          ) : (
            <table className="data-table card-table" aria-label="Open invitations">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {invitations.map((invitation) => (
                  <tr key={invitation.id}>
                    <td data-label="Email">{invitation.email}</td>
                    <td data-label="Role">{invitation.role}</td>
                    <td data-label="Expires">{formatUtc(invitation.expires_at)}</td>
                    <td data-label="Actions">
                      <button type="button" className="button button-small button-danger-outline" onClick={() => void revoke(invitation)}>
                        Revoke<span className="visually-hidden"> the invitation to {invitation.email}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}

      <div className="panel">
        <h2>New team account</h2>
        <p className="muted">A team account has its own jobs, monitors, keys and plan, shared with the members you invite.</p>
        <NewAccountForm />
      </div>

      {account.role === 'owner' && !account.personal && (
        <div className="panel danger-zone">
          <h2>Owner</h2>
          {others.length > 0 && (
            <form className="form inline-form" onSubmit={transfer} aria-label="Transfer ownership">
              <label htmlFor="transfer-to">Transfer ownership to</label>
              <select id="transfer-to" value={transferTo} onChange={(e) => setTransferTo(e.target.value)}>
                <option value="">Choose a member</option>
                {others.map((m) => (
                  <option key={m.user_id} value={m.user_id}>
                    {m.name || m.email} ({m.email})
                  </option>
                ))}
              </select>
              <button type="submit" className="button button-secondary" disabled={!transferTo}>
                Transfer Ownership
              </button>
            </form>
          )}
          <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
            Delete Account
          </button>
        </div>
      )}

      {removing && (
        <ConfirmDeleteModal title="Remove member" confirmLabel="Remove Member" onConfirm={() => removeMember(removing)} onClose={() => setRemoving(null)}>
          <p>
            Remove <strong>{removing.email}</strong> from {account.name}? Their access and their API keys for this account end at once.
          </p>
        </ConfirmDeleteModal>
      )}
      {deleting && (
        <ConfirmDeleteModal title="Delete account" confirmLabel="Delete Account" onConfirm={deleteAccount} onClose={() => setDeleting(false)}>
          <p>
            Delete <strong>{account.name}</strong> with every job, monitor, channel, key and its history? This cannot be undone.
          </p>
        </ConfirmDeleteModal>
      )}
    </section>
  );
}
