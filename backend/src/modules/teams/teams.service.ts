import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PlanId } from '@cronbeam/shared/plans';
import type { Queryable } from '../../common/database/transaction';
import { ApiError } from '../../common/http/api-error';
import { AccountsRepository } from './accounts.repository';

/** Whom an account's mail goes to: its owner (for a personal account, its user). */
export interface AccountOwner {
  userId: string;
  email: string;
  name: string;
  emailVerified: boolean;
}

/**
 * How long a plan read for a request is reused. setPlan through this service
 * drops it at once; a change made on another instance (or by the admin CLI)
 * is seen here after at most this long, as for the caller row
 * (docs/adr/0110-api-throughput.md).
 */
export const PLAN_CACHE_TTL_MS = 1_000;
const PLAN_CACHE_MAX = 10_000;

/**
 * Accounts, the owners of every resource: their plan, name and owner, and
 * the deletion of a user's accounts. A personal account has its user's id.
 */
@Injectable()
export class TeamsService {
  private readonly plans = new Map<string, { plan: PlanId; until: number }>();
  /** Bumped by every plan change: a read that started before one must not cache what it read. */
  private planWrites = 0;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly accounts: AccountsRepository,
  ) {}

  /** The account's plan (404 when there is no such account); cached for PLAN_CACHE_TTL_MS, so a write on the hot path costs no extra query. */
  async planOf(accountId: string): Promise<PlanId> {
    const now = Date.now();
    const cached = this.plans.get(accountId);
    if (cached && cached.until > now) return cached.plan;
    const writesBefore = this.planWrites;
    const plan = await this.accounts.planOf(accountId);
    if (!plan) throw ApiError.notFound();
    if (writesBefore === this.planWrites) {
      if (this.plans.size >= PLAN_CACHE_MAX) this.plans.clear();
      this.plans.set(accountId, { plan, until: now + PLAN_CACHE_TTL_MS });
    }
    return plan;
  }

  /**
   * The plan of each given account, by id (unknown ids are absent), read now.
   * Inside a transaction pass it as `tx`: the embedded database serves one
   * connection's transaction at a time, so a query on another connection would wait for it forever.
   */
  async plansOf(accountIds: string[], tx?: Queryable): Promise<Map<string, PlanId>> {
    if (accountIds.length === 0) return new Map();
    const rows = await this.accounts.plansOf([...new Set(accountIds)], tx);
    return new Map(rows.map((r) => [r.id, r.plan]));
  }

  /**
   * Sets the account's plan outside billing (operators), holding its row;
   * `alongside` (the change's audit entry) is given the plan before and runs
   * in the same transaction. Answers the plan before; 404 for no such account.
   */
  async setPlan(accountId: string, plan: PlanId, alongside: (tx: Queryable, before: PlanId) => Promise<void>): Promise<PlanId> {
    this.forgetPlan(accountId);
    const before = await this.db.transaction(async (tx) => {
      const was = await this.accounts.planForUpdate(accountId, tx);
      if (!was) throw ApiError.notFound();
      await this.accounts.setPlan(accountId, plan, tx);
      await alongside(tx, was);
      return was;
    });
    this.forgetPlan(accountId);
    return before;
  }

  /** The account's plan, locked until `tx` ends (see AccountsRepository.planForUpdate); null for no such account. */
  planForUpdate(accountId: string, tx: Queryable): Promise<PlanId | null> {
    return this.accounts.planForUpdate(accountId, tx);
  }

  /**
   * Sets the plan inside the transaction `tx` of a change it belongs to
   * (billing's, with its audit entry). Call forgetPlan once `tx` has
   * committed: a read between this and the commit still sees the old plan.
   */
  async setPlanWithin(accountId: string, plan: PlanId, tx: Queryable): Promise<void> {
    this.forgetPlan(accountId);
    if (!(await this.accounts.setPlan(accountId, plan, tx))) throw ApiError.notFound();
  }

  /** Drops the cached plan (after a transaction that set it has committed). */
  forgetPlan(accountId: string): void {
    this.planWrites++;
    this.plans.delete(accountId);
  }

  /** The account's owner, whom its mail goes to (for a personal account, its user); null when it has none. */
  async ownerOf(accountId: string): Promise<AccountOwner | null> {
    const [owner] = await this.accounts.ownersOf([accountId]);
    return owner ? { userId: owner.user_id, email: owner.email, name: owner.name, emailVerified: owner.email_verified } : null;
  }

  /**
   * A user who owns an account with other members may not be deleted (409):
   * its ownership must move first, or its members would lose it.
   */
  async assertDeletable(userId: string): Promise<void> {
    const shared = await this.accounts.ownedWithOtherMembers(userId);
    if (shared) throw ApiError.conflict(`Transfer ownership of ${shared.name} before deleting your account`);
  }

  /** The accounts deleting the user deletes: those they own with no other member (their personal account among them). */
  ownedAlone(userId: string): Promise<string[]> {
    return this.accounts.ownedAlone(userId);
  }

  /** Before a user is deleted: deletes every account they own alone, with everything in it. */
  async deleteOwnedBy(userId: string): Promise<void> {
    await this.accounts.deleteOwnedAlone(userId);
  }
}
