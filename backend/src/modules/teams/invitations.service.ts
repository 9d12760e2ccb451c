import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import {
  type AccountInvitation,
  type AccountSummary,
  INVITATION_PATH,
  INVITATION_TTL_DAYS,
  INVITATIONS_PER_HOUR,
  type InvitationPreview,
  type InvitationRequest,
  MAX_MEMBERS_PER_ACCOUNT,
  TEAM_MESSAGES,
} from '@cronbeam/shared/accounts/account-rules';
import { newOpaqueSecret, sha256 } from '../../common/crypto/secret-hash';
import { isUniqueViolation } from '../../common/database/constraint-violation';
import { ApiError } from '../../common/http/api-error';
import { DatabaseRateLimiter } from '../../common/rate-limit/database-rate-limiter';
import { isUuid } from '../../common/validation/uuid';
import { AppConfig } from '../../config/app-config';
import type { AuthenticatedUser } from '../auth';
import type { Actor } from '../audit';
import { AuditService } from '../audit/audit.service';
import { UsersService } from '../auth/users.service';
import { MailService } from '../mail/mail.service';
import { AccountsRepository } from './accounts.repository';
import { invitationMail } from './invitation-mail';
import { type InvitationRow, InvitationsRepository, OPEN_INVITATION_INDEX } from './invitations.repository';
import { MembersRepository } from './members.repository';

function toInvitation(row: InvitationRow): AccountInvitation {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    invited_by: row.invited_by,
    expires_at: new Date(row.expires_at).toISOString(),
    created_at: new Date(row.created_at).toISOString(),
  };
}

/**
 * Invitations to an account by email: a single-use link valid for
 * INVITATION_TTL_DAYS, accepted by a user signed in with the invited
 * (confirmed) address. Each open invitation holds a seat: members and open
 * invitations together stay within MAX_MEMBERS_PER_ACCOUNT.
 */
@Injectable()
export class InvitationsService {
  private readonly logger = new Logger(InvitationsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly invitations: InvitationsRepository,
    private readonly members: MembersRepository,
    private readonly accounts: AccountsRepository,
    private readonly users: UsersService,
    private readonly limiter: DatabaseRateLimiter,
    private readonly mail: MailService,
    private readonly config: AppConfig,
    private readonly audit: AuditService,
  ) {}

  async listOpen(accountId: string): Promise<AccountInvitation[]> {
    return (await this.invitations.listOpen(accountId)).map(toInvitation);
  }

  /**
   * Invites an address (not already a member's, without an open invitation)
   * and mails it the link. Counted against the account's hourly budget
   * before anything is written (given back when nothing is sent).
   */
  async invite(actor: Actor, user: AuthenticatedUser, request: InvitationRequest): Promise<AccountInvitation> {
    if (await this.members.hasMemberWithEmail(user.accountId, request.email)) throw ApiError.conflict(TEAM_MESSAGES.alreadyMember);
    // Per account, and per inviter: a user cannot multiply the budget by making accounts.
    const taken = await this.limiter.take([
      { key: `account-invitations:${user.accountId}`, limit: INVITATIONS_PER_HOUR, windowSeconds: 3600, message: TEAM_MESSAGES.tooManyInvitations },
      { key: `account-invitations:by:${user.id}`, limit: INVITATIONS_PER_HOUR, windowSeconds: 3600, message: TEAM_MESSAGES.tooManyInvitations },
    ]);
    // Only the token's hash is stored: the link is the one copy.
    const token = newOpaqueSecret();
    let row: InvitationRow | null;
    try {
      row = await this.db.transaction(async (tx) => {
        await this.invitations.lockSeats(user.accountId, tx);
        await this.invitations.closeExpired(user.accountId, request.email, tx);
        const inserted = await this.invitations.insertWithinSeats(
          { accountId: user.accountId, email: request.email, role: request.role, tokenHash: sha256(token), invitedBy: user.id, expiresAt: new Date(Date.now() + INVITATION_TTL_DAYS * 86_400_000) },
          MAX_MEMBERS_PER_ACCOUNT,
          tx,
        );
        if (inserted) {
          await this.audit.record(tx, actor, {
            action: 'invitation.created',
            targetType: 'invitation',
            targetId: inserted.id,
            changes: {
              email: { before: null, after: inserted.email },
              role: { before: null, after: inserted.role },
              expires_at: { before: null, after: new Date(inserted.expires_at).toISOString() },
            },
          });
        }
        return inserted;
      });
    } catch (error) {
      await this.limiter.giveBack(taken);
      if (isUniqueViolation(error, OPEN_INVITATION_INDEX)) throw ApiError.conflict(TEAM_MESSAGES.alreadyInvited);
      throw error;
    }
    if (!row) {
      await this.limiter.giveBack(taken);
      throw ApiError.forbidden(TEAM_MESSAGES.tooManyMembers);
    }
    await this.mail.send(invitationMail({ to: row.email, invitedBy: user.email, role: row.role, link: `${this.config.publicUrl}${INVITATION_PATH}#token=${token}`, validForDays: INVITATION_TTL_DAYS }));
    this.logger.log({ accountId: user.accountId, invitationId: row.id, by: user.id }, 'Invitation sent');
    return toInvitation(row);
  }

  async revoke(actor: Actor, accountId: string, invitationId: string): Promise<void> {
    if (!isUuid(invitationId) || !(await this.invitations.revoke(actor, accountId, invitationId))) throw ApiError.notFound(TEAM_MESSAGES.invitationNotFound);
  }

  /** What a link's invitation is, for the page that offers to accept it (no session needed: the token is the secret). */
  async preview(token: string): Promise<InvitationPreview> {
    const row = await this.invitations.findByTokenHash(sha256(token));
    const account = row ? await this.accounts.findById(row.account_id) : null;
    if (!row || !account) throw ApiError.notFound(TEAM_MESSAGES.invitationNotFound);
    return {
      account_name: account.name,
      role: row.role,
      email: row.email,
      expired: new Date(row.expires_at).getTime() <= Date.now(),
      used: row.accepted_at !== null || row.revoked_at !== null,
    };
  }

  /**
   * Joins the account with the invitation's role. The signed-in user's
   * confirmed address must be the invited one. The invitation is used and the
   * membership added in one transaction, with its audit entry in the
   * account joined (the accepting user its actor); the update that uses it
   * locks it, so of two acceptances at once exactly one succeeds.
   */
  async accept(actor: Actor, user: AuthenticatedUser, token: string): Promise<AccountSummary> {
    const tokenHash = sha256(token);
    const [found, me] = await Promise.all([this.invitations.findByTokenHash(tokenHash), this.users.findById(user.id)]);
    if (!found || !me) throw ApiError.notFound(TEAM_MESSAGES.invitationNotFound);
    if (found.email.toLowerCase() !== me.email.toLowerCase()) throw ApiError.forbidden(TEAM_MESSAGES.wrongAddress);
    if (!me.emailVerified) throw ApiError.forbidden(TEAM_MESSAGES.unverifiedAddress);
    const accepted = await this.db.transaction(async (tx) => {
      const used = await this.invitations.accept(tokenHash, me.email, tx);
      if (!used) return null;
      const joined = await this.members.insert(used.account_id, me.id, used.role, tx);
      // A member already (joined meanwhile another way) keeps their role: the link is used all the same, and that is the entry.
      await this.audit.record(tx, { ...actor, accountId: used.account_id }, {
        action: joined ? 'member.joined' : 'invitation.accepted',
        targetType: 'member',
        targetId: me.id,
        changes: { email: { before: null, after: me.email }, ...(joined ? { role: { before: null, after: used.role } } : {}), invitation_id: { before: null, after: used.id } },
      });
      return used;
    });
    if (!accepted) throw ApiError.conflict(TEAM_MESSAGES.invitationUnusable);
    const account = await this.accounts.findById(accepted.account_id);
    const role = await this.members.roleOf(accepted.account_id, me.id);
    if (!account || !role) throw ApiError.notFound(TEAM_MESSAGES.invitationNotFound);
    this.logger.log({ accountId: account.id, userId: me.id, invitationId: accepted.id }, 'Invitation accepted');
    return { id: account.id, name: account.name, personal: account.personal, role, created_at: new Date(account.created_at).toISOString() };
  }
}
