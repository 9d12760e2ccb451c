import { z } from 'zod';
import type { AccountRole } from './roles';

/** People in one account at once, counting open invitations (each holds a seat until it is accepted, revoked or expires). */
export const MAX_MEMBERS_PER_ACCOUNT = 50;
/** Invitations one account may send per hour (each one mails an address someone typed). */
export const INVITATIONS_PER_HOUR = 20;
/** How long an invitation's link works. */
export const INVITATION_TTL_DAYS = 7;
/** Team accounts one user may own (a personal account is not counted): each is a separate free plan and quota. */
export const MAX_TEAM_ACCOUNTS_PER_USER = 10;
export const ACCOUNT_NAME_MAX_LENGTH = 100;
/** The web app's page an invitation's link opens (the token after `#token=`, so it never reaches a server log). */
export const INVITATION_PATH = '/invitations/accept';

/** Roles a member can be given or invited with: ownership moves only by a transfer. */
export const ASSIGNABLE_ROLES = ['admin', 'editor', 'viewer'] as const satisfies readonly AccountRole[];
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export const TEAM_MESSAGES = {
  nameRequired: 'Please enter a name for the account',
  nameTooLong: `Account name must be at most ${ACCOUNT_NAME_MAX_LENGTH} characters`,
  roleInvalid: 'Role must be admin, editor or viewer',
  emailInvalid: 'Please enter a valid email address',
  userIdInvalid: 'user_id must be the id of a member of the account',
  tokenRequired: 'The invitation token is missing',
  memberNotFound: 'Member not found',
  invitationNotFound: 'Invitation not found',
  ownerUntouchable: 'The owner cannot be removed or given another role; transfer ownership first',
  transferToSelf: 'You already own this account',
  personalAccount: 'A personal account cannot be deleted or transferred; delete your user account instead',
  alreadyMember: 'This address already belongs to a member of the account',
  alreadyInvited: 'This address already has an open invitation to the account; revoke it to send a new one',
  tooManyMembers: `An account can have at most ${MAX_MEMBERS_PER_ACCOUNT} members and open invitations`,
  tooManyTeamAccounts: `You can own at most ${MAX_TEAM_ACCOUNTS_PER_USER} team accounts; delete or transfer one first`,
  tooManyInvitations: `At most ${INVITATIONS_PER_HOUR} invitations per hour per account; retry later`,
  invitationUnusable: 'This invitation has expired, was revoked or was already used',
  wrongAddress: 'This invitation was sent to another address: sign in with the address it was sent to',
  unverifiedAddress: 'Confirm your email address before accepting an invitation',
} as const;

const objectError = { error: (issue: { code: string; keys?: string[] }) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${(issue.keys ?? []).join(', ')}` : 'Request body must be a JSON object') };

const accountName = z
  .string({ error: TEAM_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: TEAM_MESSAGES.nameRequired, abort: true })
  .max(ACCOUNT_NAME_MAX_LENGTH, TEAM_MESSAGES.nameTooLong);

const assignableRole = z.enum(ASSIGNABLE_ROLES, { error: TEAM_MESSAGES.roleInvalid });

/** POST /api/accounts and PATCH /api/accounts/{id}. */
export const accountNameSchema = z.strictObject({ name: accountName }, objectError);
export type AccountNameRequest = z.infer<typeof accountNameSchema>;

/** POST /api/accounts/{id}/transfer. */
export const transferSchema = z.strictObject({ user_id: z.uuid({ error: TEAM_MESSAGES.userIdInvalid }) }, objectError);
export type TransferRequest = z.infer<typeof transferSchema>;

/** PATCH /api/accounts/{id}/members/{userId}. */
export const memberRoleSchema = z.strictObject({ role: assignableRole }, objectError);
export type MemberRoleRequest = z.infer<typeof memberRoleSchema>;

/** POST /api/accounts/{id}/invitations. */
export const invitationSchema = z.strictObject(
  {
    email: z.string({ error: TEAM_MESSAGES.emailInvalid }).trim().max(254, TEAM_MESSAGES.emailInvalid).pipe(z.email({ error: TEAM_MESSAGES.emailInvalid })),
    role: assignableRole,
  },
  objectError,
);
export type InvitationRequest = z.infer<typeof invitationSchema>;

/** POST /api/invitations/accept. */
export const acceptInvitationSchema = z.strictObject(
  { token: z.string({ error: TEAM_MESSAGES.tokenRequired }).trim().min(1, { error: TEAM_MESSAGES.tokenRequired, abort: true }).max(200, TEAM_MESSAGES.invitationUnusable) },
  objectError,
);
export type AcceptInvitationRequest = z.infer<typeof acceptInvitationSchema>;

/** An account as the list of the caller's accounts answers it. */
export interface AccountSummary {
  id: string;
  name: string;
  /** The user's own account (its id is the user's); it cannot be deleted or transferred. */
  personal: boolean;
  /** The caller's role in it. */
  role: AccountRole;
  created_at: string;
}

export interface AccountMember {
  user_id: string;
  email: string;
  name: string;
  role: AccountRole;
  joined_at: string;
}

export interface AccountInvitation {
  id: string;
  email: string;
  role: AssignableRole;
  /** The member who sent it (null once they are deleted). */
  invited_by: string | null;
  expires_at: string;
  created_at: string;
}

/** GET /api/invitations/{token}: what accepting would do. */
export interface InvitationPreview {
  account_name: string;
  role: AssignableRole;
  email: string;
  expired: boolean;
  /** Accepted or revoked already: it cannot be used. */
  used: boolean;
}
