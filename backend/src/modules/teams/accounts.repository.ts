import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { PlanId } from '@cronbeam/shared/plans';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';
import { auditChanges, auditedStatement, type Actor } from '../audit';

export interface AccountRow {
  id: string;
  name: string;
  personal: boolean;
  created_at: Date;
}

/** Whom an account's alert mail goes to: its owner. */
export interface AccountOwnerRow {
  account_id: string;
  user_id: string;
  email: string;
  name: string;
  email_verified: boolean;
}

/**
 * Every SQL statement on `accounts`, one per function. A personal account has
 * its user's id. The owner and deletion queries read `account_members` (read-only).
 */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findById(accountId: string): Promise<AccountRow | null> {
    const rows: AccountRow[] = await this.db.query(`SELECT id, name, personal, created_at FROM accounts WHERE id = $1`, [accountId]);
    return rows[0] ?? null;
  }

  /** Serialises the creation of team accounts by one user until the transaction ends (see insertTeamWithin). */
  async lockOwnedTeams(userId: string, tx: Queryable): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('owned-teams:' || $1))`, [userId]);
  }

  /**
   * A team account (never personal), unless the user already owns `maxOwned`
   * team accounts: then null. Its owner is added in the same transaction, which
   * holds lockOwnedTeams, so two creations cannot both take the last place.
   */
  async insertTeamWithin(name: string, userId: string, maxOwned: number, tx: Queryable): Promise<AccountRow | null> {
    const rows: AccountRow[] = await tx.query(
      `INSERT INTO accounts (name, personal)
       SELECT $1, false
        WHERE (SELECT count(*) FROM account_members m JOIN accounts a ON a.id = m.account_id
                WHERE m.user_id = $2 AND m.role = 'owner' AND NOT a.personal) < $3
       RETURNING id, name, personal, created_at`,
      [name, userId, maxOwned],
    );
    return rows[0] ?? null;
  }

  /** Renames the account, with the audit entry of the change (the name before and after). */
  async rename(actor: Actor, accountId: string, name: string): Promise<AccountRow | null> {
    const rows: AccountRow[] = await this.db.query(
      ...auditedStatement(actor, {
        ctes: `b AS (SELECT id, name FROM accounts WHERE id = $1 FOR UPDATE),
               c AS (UPDATE accounts a SET name = $2 FROM b WHERE a.id = b.id RETURNING a.id, a.name, a.personal, a.created_at)`,
        params: [accountId, name],
        from: 'c JOIN b ON b.id = c.id',
        action: 'account.renamed',
        targetType: 'account',
        targetId: 'c.id',
        changes: auditChanges(`jsonb_build_object('name', b.name)`, `jsonb_build_object('name', c.name)`, []),
        result: 'SELECT * FROM c',
      }),
    );
    return rows[0] ?? null;
  }

  /**
   * Deletes a team account with everything it holds (ON DELETE CASCADE), its
   * own audit log among it; a personal account is never deleted here. The
   * deletion's entry goes to the account `actor` names (the deleting owner's
   * personal one), in the same statement: its name and how many members it had.
   */
  async deleteTeam(actor: Actor, accountId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM accounts WHERE id = $1 AND personal = false RETURNING id, name)`,
        params: [accountId],
        from: 'c',
        action: 'account.deleted',
        targetType: 'account',
        targetId: 'c.id',
        // The members as the statement found them (its snapshot precedes the cascade).
        changes: auditChanges(`jsonb_build_object('name', c.name, 'members', (SELECT count(*) FROM account_members m WHERE m.account_id = c.id))`, 'NULL', []),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  async planOf(accountId: string): Promise<PlanId | null> {
    const rows: Array<{ plan: PlanId }> = await this.db.query(`SELECT plan FROM accounts WHERE id = $1`, [accountId]);
    return rows[0]?.plan ?? null;
  }

  /** Inside a transaction pass it as `tx`: the embedded database serves one connection's transaction at a time. */
  plansOf(accountIds: string[], tx: Queryable = this.db): Promise<Array<{ id: string; plan: PlanId }>> {
    return tx.query(`SELECT id, plan FROM accounts WHERE id = ANY($1::uuid[])`, [accountIds]);
  }

  /**
   * The account's plan, its row locked until the transaction `tx` ends (so
   * the changes of one account's billing happen one after the other, and
   * the account is not deleted meanwhile); null when there is no such account.
   */
  async planForUpdate(accountId: string, tx: Queryable): Promise<PlanId | null> {
    const rows: Array<{ plan: PlanId }> = await tx.query(`SELECT plan FROM accounts WHERE id = $1 FOR UPDATE`, [accountId]);
    return rows[0]?.plan ?? null;
  }

  /** False when there is no such account. */
  async setPlan(accountId: string, plan: PlanId, tx: Queryable = this.db): Promise<boolean> {
    const result = await tx.query(`UPDATE accounts SET plan = $2 WHERE id = $1 RETURNING id`, [accountId, plan]);
    return returnedRows(result).length > 0;
  }

  async nameOf(accountId: string): Promise<string | null> {
    const rows: Array<{ name: string }> = await this.db.query(`SELECT name FROM accounts WHERE id = $1`, [accountId]);
    return rows[0]?.name ?? null;
  }

  /** The owner of each given account that has one (reads account_members and users, read-only). */
  ownersOf(accountIds: string[]): Promise<AccountOwnerRow[]> {
    return this.db.query(
      `SELECT m.account_id, u.id AS user_id, u.email, u.name, u.email_verified
       FROM account_members m JOIN users u ON u.id = m.user_id
       WHERE m.account_id = ANY($1::uuid[]) AND m.role = 'owner'`,
      [accountIds],
    );
  }

  /** The first account the user owns that has another member (it would be left without an owner), or null. */
  async ownedWithOtherMembers(userId: string): Promise<{ id: string; name: string } | null> {
    const rows: Array<{ id: string; name: string }> = await this.db.query(
      `SELECT a.id, a.name FROM accounts a
       JOIN account_members o ON o.account_id = a.id AND o.user_id = $1 AND o.role = 'owner'
       WHERE EXISTS (SELECT 1 FROM account_members m WHERE m.account_id = a.id AND m.user_id <> $1)
       ORDER BY a.created_at LIMIT 1`,
      [userId],
    );
    return rows[0] ?? null;
  }

  /** The accounts the user owns with no other member, oldest first. */
  async ownedAlone(userId: string): Promise<string[]> {
    const rows: Array<{ id: string }> = await this.db.query(
      `SELECT a.id FROM accounts a
       JOIN account_members o ON o.account_id = a.id AND o.user_id = $1 AND o.role = 'owner'
       WHERE NOT EXISTS (SELECT 1 FROM account_members m WHERE m.account_id = a.id AND m.user_id <> $1)
       ORDER BY a.created_at`,
      [userId],
    );
    return rows.map((r) => r.id);
  }

  /**
   * Deletes every account the user owns alone, with everything it holds (its
   * resources reference accounts with ON DELETE CASCADE); answers their ids.
   */
  async deleteOwnedAlone(userId: string): Promise<string[]> {
    const result = await this.db.query(
      `DELETE FROM accounts a
       USING account_members o
       WHERE o.account_id = a.id AND o.user_id = $1 AND o.role = 'owner'
         AND NOT EXISTS (SELECT 1 FROM account_members m WHERE m.account_id = a.id AND m.user_id <> $1)
       RETURNING a.id`,
      [userId],
    );
    return returnedRows<{ id: string }>(result).map((r) => r.id);
  }
}
