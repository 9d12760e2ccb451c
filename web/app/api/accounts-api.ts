import type { AccountInvitation, AccountMember, AccountSummary, AssignableRole, InvitationPreview } from '@cronbeam/shared/accounts/account-rules';
import { apiRequest } from './api-client';

const account = (id: string) => `/accounts/${encodeURIComponent(id)}`;

/** Accounts, their members and invitations (the path names the account; the server checks the caller's role in it). */
export const accountsApi = {
  list: () => apiRequest<AccountSummary[]>('GET', '/accounts'),
  create: (name: string) => apiRequest<AccountSummary>('POST', '/accounts', { body: { name } }),
  rename: (id: string, name: string) => apiRequest<AccountSummary>('PATCH', account(id), { body: { name } }),
  remove: (id: string) => apiRequest<{ message: string }>('DELETE', account(id)),
  transfer: (id: string, userId: string) => apiRequest<{ message: string }>('POST', `${account(id)}/transfer`, { body: { user_id: userId } }),
  members: (id: string) => apiRequest<AccountMember[]>('GET', `${account(id)}/members`),
  changeRole: (id: string, userId: string, role: AssignableRole) => apiRequest<{ message: string }>('PATCH', `${account(id)}/members/${encodeURIComponent(userId)}`, { body: { role } }),
  removeMember: (id: string, userId: string) => apiRequest<{ message: string }>('DELETE', `${account(id)}/members/${encodeURIComponent(userId)}`),
  invitations: (id: string) => apiRequest<AccountInvitation[]>('GET', `${account(id)}/invitations`),
  invite: (id: string, email: string, role: AssignableRole) => apiRequest<AccountInvitation>('POST', `${account(id)}/invitations`, { body: { email, role } }),
  revokeInvitation: (id: string, invitationId: string) => apiRequest<{ message: string }>('DELETE', `${account(id)}/invitations/${encodeURIComponent(invitationId)}`),
  previewInvitation: (token: string) => apiRequest<InvitationPreview>('GET', `/invitations/${encodeURIComponent(token)}`, { auth: false }),
  acceptInvitation: (token: string) => apiRequest<AccountSummary>('POST', '/invitations/accept', { body: { token } }),
};
