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
  ) {}

  async accountsOf(userId: string): Promise<AccountSummary[]> {
    const rows = await this.members.accountsOf(userId);
    return rows.map((row) => toSummary(row, row.role));
  }

  /** A team account, the caller its owner; refused (403) once they own MAX_TEAM_ACCOUNTS_PER_USER. */
  async create(userId: string, name: string): Promise<AccountSummary> {
    const account = await this.db.transaction(async (tx) => {
      await this.accounts.lockOwnedTeams(userId, tx);
      const inserted = await this.accounts.insertTeamWithin(name, userId, MAX_TEAM_ACCOUNTS_PER_USER, tx);
      if (inserted) await this.members.insertOwner(inserted.id, userId, tx);
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

  async rename(user: AuthenticatedUser, name: string): Promise<AccountSummary> {
    const account = await this.accounts.rename(user.accountId, name);
    if (!account || !user.role) throw ApiError.notFound(ACCOUNT_MESSAGES.accountNotFound);
    return toSummary(account, user.role);
  }

  /** 409 for the caller's personal account, which goes only with their user account. */
  assertTeamAccount(user: AuthenticatedUser): void {
    if (user.accountId === user.id) throw ApiError.conflict(TEAM_MESSAGES.personalAccount);
  }

  /** Deletes a team account and everything it holds; a personal account goes only with its user. */
  async delete(user: AuthenticatedUser): Promise<void> {
    this.assertTeamAccount(user);
    const members = await this.members.list(user.accountId);
    if (!(await this.accounts.deleteTeam(user.accountId))) throw ApiError.notFound(ACCOUNT_MESSAGES.accountNotFound);
    // Someone who joined in between has no open stream worth ending at once: the heartbeat check finds them.
    for (const member of members) this.users.membershipEnded(member.user_id, user.accountId);
    this.logger.log({ accountId: user.accountId, userId: user.id }, 'Team account deleted');
  }

  /**
   * Makes another member the owner; the caller (the owner) becomes an admin.
   * Both changes are one transaction; of two transfers at once, the second
   * finds no owner to demote and changes nothing.
   */
  async transfer(user: AuthenticatedUser, toUserId: string): Promise<void> {
    if (user.accountId === user.id) throw ApiError.conflict(TEAM_MESSAGES.personalAccount);
    if (toUserId === user.id) throw ApiError.conflict(TEAM_MESSAGES.transferToSelf);
    const moved = await this.db.transaction(async (tx) => {
      if (!(await this.members.demoteOwnerFor(user.accountId, user.id, toUserId, tx))) return false;
      return this.members.promoteToOwner(user.accountId, toUserId, tx);
    });
    if (!moved) throw ApiError.invalidField(['body', 'user_id'], TEAM_MESSAGES.userIdInvalid);
    this.logger.log({ accountId: user.accountId, from: user.id, to: toUserId }, 'Account ownership transferred');
  }

  async list(accountId: string): Promise<AccountMember[]> {
    const rows = await this.members.list(accountId);
    return rows.map((m) => ({ user_id: m.user_id, email: m.email, name: m.name, role: m.role, joined_at: new Date(m.created_at).toISOString() }));
  }

  async setRole(accountId: string, userId: string, role: AssignableRole): Promise<void> {
    assertChanged(await this.members.setRole(accountId, memberId(userId), role));
  }

  /**
   * Removes a member (or the caller, leaving), never the owner, and the API
   * keys they made in the account, in one transaction. The membership goes
   * at once, so the member's sessions lose the account at their next request
   * (membership is read on every one).
   */
  async remove(actor: Actor, user: AuthenticatedUser, userId: string): Promise<void> {
    const change = await this.db.transaction(async (tx) => {
      const removed = await this.members.remove(user.accountId, memberId(userId), tx);
      if (removed === 'done') await this.keys.deleteMadeBy(actor, user.accountId, userId, tx);
      return removed;
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
