import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { type AccountMember, type AccountSummary, type AssignableRole, MAX_TEAM_ACCOUNTS_PER_USER, TEAM_MESSAGES } from '@cronbeam/shared/accounts/account-rules';
import { ACCOUNT_MESSAGES } from '@cronbeam/shared/accounts/account-messages';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import type { AuthenticatedUser } from '../auth';
import { UsersService } from '../auth/users.service';
import { ApiKeysService } from '../api-keys/api-keys.service';
import type { Actor } from '../audit';
import { AuditService } from '../audit/audit.service';
import { type AccountRow, AccountsRepository } from './accounts.repository';
import { type MemberChange, MembersRepository } from './members.repository';

function toSummary(account: AccountRow, role: AccountSummary['role']): AccountSummary {
  return { id: account.id, name: account.name, personal: account.personal, role, created_at: new Date(account.created_at).toISOString() };
}

/** A member id from the path that is not a UUID names nobody. */
function memberId(userId: string): string {
  if (!isUuid(userId)) throw ApiError.notFound(TEAM_MESSAGES.memberNotFound);
  return userId;
}

function assertChanged(change: MemberChange): void {
  if (change === 'not_found') throw ApiError.notFound(TEAM_MESSAGES.memberNotFound);
  if (change === 'owner') throw ApiError.conflict(TEAM_MESSAGES.ownerUntouchable);
}

/**
 * The accounts a user belongs to and their members: creating, renaming,
 * deleting and transferring team accounts, members' roles and removal.
 * The role guard has already checked the caller's role in the account the
 * path names (`user.accountId`, `user.role`).
 */
@Injectable()
export class MembershipService {
  private readonly logger = new Logger(MembershipService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsRepository,
    private readonly members: MembersRepository,
    private readonly users: UsersService,
    private readonly keys: ApiKeysService,
    private readonly audit: AuditService,
  ) {}

  async accountsOf(userId: string): Promise<AccountSummary[]> {
    const rows = await this.members.accountsOf(userId);
    return rows.map((row) => toSummary(row, row.role));
  }

  /**
   * A team account, the caller its owner; refused (403) once they own
   * MAX_TEAM_ACCOUNTS_PER_USER. Its first audit entry (in the new account,
   * whichever account the request came from) is written with it.
   */
  async create(actor: Actor, userId: string, name: string): Promise<AccountSummary> {
    const account = await this.db.transaction(async (tx) => {
      await this.accounts.lockOwnedTeams(userId, tx);
      const inserted = await this.accounts.insertTeamWithin(name, userId, MAX_TEAM_ACCOUNTS_PER_USER, tx);
      if (!inserted) return null;
      await this.members.insertOwner(inserted.id, userId, tx);
      await this.audit.record(tx, { ...actor, accountId: inserted.id }, { action: 'account.created', targetType: 'account', targetId: inserted.id, changes: { name: { before: null, after: inserted.name } } });
      return inserted;
    });
    if (!account) throw ApiError.forbidden(TEAM_MESSAGES.tooManyTeamAccounts);
    this.logger.log({ accountId: account.id, userId }, 'Team account created');
    return toSummary(account, 'owner');
  }

  async show(user: AuthenticatedUser): Promise<AccountSummary> {
    const account = await this.accounts.findById(user.accountId);
    if (!account || !user.role) throw ApiError.notFound(ACCOUNT_MESSAGES.accountNotFound);
    return toSummary(account, user.role);
  }

  async rename(actor: Actor, user: AuthenticatedUser, name: string): Promise<AccountSummary> {
    if (!user.role) throw ApiError.notFound(ACCOUNT_MESSAGES.accountNotFound);
    const account = await this.accounts.rename(actor, user.accountId, name);
    if (!account) throw ApiError.notFound(ACCOUNT_MESSAGES.accountNotFound);
    return toSummary(account, user.role);
  }

  /** 409 for the caller's personal account, which goes only with their user account. */
  assertTeamAccount(user: AuthenticatedUser): void {
    if (user.accountId === user.id) throw ApiError.conflict(TEAM_MESSAGES.personalAccount);
  }

  /**
   * Deletes a team account and everything it holds, its audit log among it;
   * a personal account goes only with its user. The deletion's audit entry
   * goes to the deleting owner's personal account, where it outlives the team.
   */
  async delete(actor: Actor, user: AuthenticatedUser): Promise<void> {
    this.assertTeamAccount(user);
    const members = await this.members.list(user.accountId);
    if (!(await this.accounts.deleteTeam({ ...actor, accountId: user.id }, user.accountId))) throw ApiError.notFound(ACCOUNT_MESSAGES.accountNotFound);
    // Someone who joined in between has no open stream worth ending at once: the heartbeat check finds them.
    for (const member of members) this.users.membershipEnded(member.user_id, user.accountId);
    this.logger.log({ accountId: user.accountId, userId: user.id }, 'Team account deleted');
  }

  /**
   * Makes another member the owner; the caller (the owner) becomes an admin.
   * Both changes and their audit entry are one transaction; of two transfers
   * at once, the second finds no owner to demote and changes nothing.
   */
  async transfer(actor: Actor, user: AuthenticatedUser, toUserId: string): Promise<void> {
    if (user.accountId === user.id) throw ApiError.conflict(TEAM_MESSAGES.personalAccount);
    if (toUserId === user.id) throw ApiError.conflict(TEAM_MESSAGES.transferToSelf);
    const moved = await this.db.transaction(async (tx) => {
      if (!(await this.members.demoteOwnerFor(user.accountId, user.id, toUserId, tx))) return false;
      // The member left between the two statements: throwing rolls the demotion back.
      if (!(await this.members.promoteToOwner(user.accountId, toUserId, tx))) throw ApiError.invalidField(['body', 'user_id'], TEAM_MESSAGES.userIdInvalid);
      await this.audit.record(tx, actor, { action: 'account.ownership_transferred', targetType: 'account', targetId: user.accountId, changes: { owner: { before: user.id, after: toUserId } } });
      return true;
    });
    if (!moved) throw ApiError.invalidField(['body', 'user_id'], TEAM_MESSAGES.userIdInvalid);
    this.logger.log({ accountId: user.accountId, from: user.id, to: toUserId }, 'Account ownership transferred');
  }

  async list(accountId: string): Promise<AccountMember[]> {
    const rows = await this.members.list(accountId);
    return rows.map((m) => ({ user_id: m.user_id, email: m.email, name: m.name, role: m.role, joined_at: new Date(m.created_at).toISOString() }));
  }

  async setRole(actor: Actor, accountId: string, userId: string, role: AssignableRole): Promise<void> {
    assertChanged(await this.members.setRole(actor, accountId, memberId(userId), role));
  }

  /**
   * Removes a member (or the caller, leaving), never the owner, and the API
   * keys they made in the account, in one transaction with one audit entry
   * (`member.removed`, or `member.left` for the caller) naming the deleted
   * keys. The membership goes at once, so the member's sessions lose the
   * account at their next request (membership is read on every one).
   */
  async remove(actor: Actor, user: AuthenticatedUser, userId: string): Promise<void> {
    const change = await this.db.transaction(async (tx) => {
      const removed = await this.members.remove(user.accountId, memberId(userId), tx);
      if (removed.change !== 'done') return removed.change;
      const keys = await this.keys.deleteMadeBy(user.accountId, userId, tx);
      await this.audit.record(tx, actor, {
        action: userId === user.id ? 'member.left' : 'member.removed',
        targetType: 'member',
        targetId: userId,
        changes: {
          email: { before: removed.email, after: null },
          role: { before: removed.role, after: null },
          ...(keys.length > 0 ? { api_keys: { before: keys, after: null } } : {}),
        },
      });
      return removed.change;
    });
    assertChanged(change);
    this.users.membershipEnded(userId, user.accountId);
    this.logger.log({ accountId: user.accountId, userId, by: user.id }, 'Member removed');
  }

  /** Whether one of the account's members has this address. */
  hasMemberWithEmail(accountId: string, email: string): Promise<boolean> {
    return this.members.hasMemberWithEmail(accountId, email);
  }
}
