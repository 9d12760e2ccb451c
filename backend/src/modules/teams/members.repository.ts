import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AccountRole } from '@cronbeam/shared/accounts/roles';
import type { AssignableRole } from '@cronbeam/shared/accounts/account-rules';
import type { Queryable } from '../../common/database/transaction';
import { returnedRows } from '../../common/database/query-rows';
import { auditChanges, auditedStatement, type Actor } from '../audit';

export interface MembershipRow {
  id: string;
  name: string;
  personal: boolean;
  role: AccountRole;
  created_at: Date;
}

export interface MemberRow {
  user_id: string;
  email: string;
  name: string;
  role: AccountRole;
  created_at: Date;
}

/** What a change of one member found: no such member, the owner (left as is), or done. */
export type MemberChange = 'not_found' | 'owner' | 'done';

/**
 * Every SQL statement on `account_members`, one per function. An account has
 * exactly one owner (a unique partial index); ownership moves only by
 * transfer, so no statement here demotes or removes an owner except that one.
 */
@Injectable()
export class MembersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** The user's accounts with their role in each, their personal account first. */
  accountsOf(userId: string): Promise<MembershipRow[]> {
    return this.db.query(
      `SELECT a.id, a.name, a.personal, m.role, a.created_at
         FROM account_members m JOIN accounts a ON a.id = m.account_id
        WHERE m.user_id = $1
        ORDER BY a.personal DESC, a.created_at, a.id`,
      [userId],
    );
  }

  /** The user's role in the account, or null when they are not a member. */
  async roleOf(accountId: string, userId: string): Promise<AccountRole | null> {
    const rows: Array<{ role: AccountRole }> = await this.db.query(`SELECT role FROM account_members WHERE account_id = $1 AND user_id = $2`, [accountId, userId]);
    return rows[0]?.role ?? null;
  }

  /** Owner first, then by when they joined. */
  list(accountId: string): Promise<MemberRow[]> {
    return this.db.query(
      `SELECT m.user_id, u.email, u.name, m.role, m.created_at
         FROM account_members m JOIN users u ON u.id = m.user_id
        WHERE m.account_id = $1
        ORDER BY (m.role = 'owner') DESC, m.created_at, m.user_id`,
      [accountId],
    );
  }

  /** Whether a member of the account has this address (compared as sign-in compares it: case-insensitively). */
  async hasMemberWithEmail(accountId: string, email: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      `SELECT 1 FROM account_members m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1 AND lower(u.email) = lower($2)`,
      [accountId, email],
    );
    return rows.length > 0;
  }

  async count(accountId: string, tx: Queryable = this.db): Promise<number> {
    const rows: Array<{ n: number }> = await tx.query(`SELECT count(*)::int AS n FROM account_members WHERE account_id = $1`, [accountId]);
    return rows[0]?.n ?? 0;
  }

  async insertOwner(accountId: string, userId: string, tx: Queryable): Promise<void> {
    await tx.query(`INSERT INTO account_members (account_id, user_id, role) VALUES ($1, $2, 'owner')`, [accountId, userId]);
  }

  /** Adds a member; false when they already are one (their role is left as it is). */
  async insert(accountId: string, userId: string, role: AssignableRole, tx: Queryable): Promise<boolean> {
    const rows: unknown[] = await tx.query(
      `INSERT INTO account_members (account_id, user_id, role) VALUES ($1, $2, $3) ON CONFLICT (account_id, user_id) DO NOTHING RETURNING user_id`,
      [accountId, userId, role],
    );
    return rows.length > 0;
  }

  /**
   * Gives a member another role, with the audit entry of the change; the
   * owner's is never changed here.
   */
  async setRole(actor: Actor, accountId: string, userId: string, role: AssignableRole): Promise<MemberChange> {
    const rows: Array<{ role: AccountRole; changed: boolean }> = await this.db.query(
      ...auditedStatement(actor, {
        // The update reads the locked row (FROM target), so `target` is the row as it was when the lock was granted.
        ctes: `target AS (SELECT account_id, user_id, role FROM account_members WHERE account_id = $1 AND user_id = $2 FOR UPDATE),
               changed AS (UPDATE account_members m SET role = $3 FROM target
                            WHERE m.account_id = target.account_id AND m.user_id = target.user_id AND target.role <> 'owner' RETURNING m.user_id, m.role)`,
        params: [accountId, userId, role],
        from: 'changed CROSS JOIN target',
        action: 'member.role_changed',
        targetType: 'member',
        targetId: 'changed.user_id',
        changes: auditChanges(`jsonb_build_object('role', target.role)`, `jsonb_build_object('role', changed.role)`, []),
        result: 'SELECT target.role, EXISTS (SELECT 1 FROM changed) AS changed FROM target',
      }),
    );
    return changeOf(rows[0]);
  }

  /**
   * Removes a member, never the owner; answers what it found, and the
   * member's role and address when they were removed (for the audit entry
   * the removal's transaction writes).
   */
  async remove(accountId: string, userId: string, tx: Queryable): Promise<{ change: MemberChange; role: AccountRole | null; email: string | null }> {
    const rows: Array<{ role: AccountRole; email: string; changed: boolean }> = await tx.query(
      `WITH target AS (SELECT m.role, u.email FROM account_members m JOIN users u ON u.id = m.user_id WHERE m.account_id = $1 AND m.user_id = $2),
            changed AS (DELETE FROM account_members WHERE account_id = $1 AND user_id = $2 AND role <> 'owner' RETURNING user_id)
       SELECT target.role, target.email, EXISTS (SELECT 1 FROM changed) AS changed FROM target`,
      [accountId, userId],
    );
    const row = rows[0];
    return { change: changeOf(row), role: row?.role ?? null, email: row?.email ?? null };
  }

  /**
   * First half of a transfer: the owner becomes an admin, if `toUserId` is
   * another member. Locks the owner's row, so of two transfers at once the
   * second finds no owner to demote. False when nothing changed.
   */
  async demoteOwnerFor(accountId: string, ownerId: string, toUserId: string, tx: Queryable): Promise<boolean> {
    const result = await tx.query(
      `UPDATE account_members SET role = 'admin'
        WHERE account_id = $1 AND user_id = $2 AND role = 'owner'
          AND EXISTS (SELECT 1 FROM account_members o WHERE o.account_id = $1 AND o.user_id = $3 AND o.user_id <> $2)
        RETURNING user_id`,
      [accountId, ownerId, toUserId],
    );
    return returnedRows(result).length > 0;
  }

  /** Second half of a transfer (after demoteOwnerFor, in its transaction): the member becomes the owner. */
  async promoteToOwner(accountId: string, userId: string, tx: Queryable): Promise<boolean> {
    const result = await tx.query(`UPDATE account_members SET role = 'owner' WHERE account_id = $1 AND user_id = $2 RETURNING user_id`, [accountId, userId]);
    return returnedRows(result).length > 0;
  }
}

function changeOf(row: { role: AccountRole; changed: boolean } | undefined): MemberChange {
  if (!row) return 'not_found';
  return row.changed ? 'done' : 'owner';
}
