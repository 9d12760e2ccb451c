import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { AccountRole } from '@cronbeam/shared/accounts/roles';
import type { Queryable } from '../../common/database/transaction';
import { UserEntity } from './user.entity';

/** A new account's columns. */
export interface NewUserRow {
  /** Set when the identity provider owns the id (Cognito's sub); generated otherwise. */
  id: string | null;
  email: string;
  name: string;
  passwordHash: string | null;
  emailVerified: boolean;
}

/** The columns authenticating a request reads, as stored. */
export interface CallerColumns {
  id: string;
  email: string;
  sessions_revoked_at: Date | null;
}

/** The caller's columns with their role in the account the request names (null: not a member). */
export interface CallerInAccountColumns extends CallerColumns {
  role: AccountRole | null;
}

export type UserWritableColumns = Partial<Pick<UserEntity, 'name' | 'passwordHash' | 'emailVerified' | 'sessionsRevokedAt'>>;

/** The column of each writable field. */
const WRITABLE: Record<keyof UserWritableColumns, string> = {
  name: 'name',
  passwordHash: 'password_hash',
  emailVerified: 'email_verified',
  sessionsRevokedAt: 'sessions_revoked_at',
};

/**
 * Every SQL statement on `users`, one per function. Emails are unique
 * case-insensitively (index on lower(email)).
 */
@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly users: Repository<UserEntity>) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.users.findOneBy({ id });
  }

  /** Plain SQL, no entity hydration: authentication reads this on every request whose row is not cached. */
  async findCaller(id: string): Promise<CallerColumns | null> {
    const rows: CallerColumns[] = await this.users.query(`SELECT id, email, sessions_revoked_at FROM users WHERE id = $1`, [id]);
    return rows[0] ?? null;
  }

  /**
   * The caller and their membership of an account in one statement: every
   * authenticated request reads it, so a member removed by any instance is
   * refused by the next request. `accountId` must be a UUID (or null: no role).
   */
  async findCallerIn(id: string, accountId: string | null): Promise<CallerInAccountColumns | null> {
    const rows: CallerInAccountColumns[] = await this.users.query(
      `SELECT u.id, u.email, u.sessions_revoked_at, m.role
         FROM users u LEFT JOIN account_members m ON m.account_id = $2::uuid AND m.user_id = u.id
        WHERE u.id = $1`,
      [id, accountId],
    );
    return rows[0] ?? null;
  }

  findByEmail(email: string): Promise<UserEntity | null> {
    return this.users.createQueryBuilder('u').where('lower(u.email) = lower(:email)', { email }).getOne();
  }

  /** Oldest first. */
  list(): Promise<UserEntity[]> {
    return this.users.find({ order: { createdAt: 'ASC' } });
  }

  /**
   * Inserts a user with their personal account (the user's own id, the user
   * its owner) in one statement, so no user exists without one; answers the
   * id, or null when the email is taken (the unique index decides, so there
   * is no race). On `tx` when the user is made in a transaction with more.
   */
  async insert(row: NewUserRow, tx: Queryable = this.users): Promise<string | null> {
    const inserted: Array<{ id: string }> = await tx.query(
      `WITH added AS (
         INSERT INTO users (id, email, name, password_hash, email_verified)
         VALUES (COALESCE($1::uuid, gen_random_uuid()), $2, $3, $4, $5)
         ON CONFLICT DO NOTHING RETURNING id, name, created_at
       ), personal AS (
         INSERT INTO accounts (id, name, personal, created_at) SELECT id, name, true, created_at FROM added RETURNING id
       ), owner AS (
         INSERT INTO account_members (account_id, user_id, role, created_at) SELECT id, id, 'owner', created_at FROM added
       )
       SELECT added.id FROM added JOIN personal ON personal.id = added.id`,
      [row.id, row.email, row.name, row.passwordHash, row.emailVerified],
    );
    return inserted[0]?.id ?? null;
  }

  /** On `tx` when the change is one of several in a transaction. */
  async update(userId: string, columns: UserWritableColumns, tx: Queryable = this.users): Promise<void> {
    const fields = (Object.keys(WRITABLE) as Array<keyof UserWritableColumns>).filter((field) => columns[field] !== undefined);
    if (fields.length === 0) return;
    await tx.query(`UPDATE users SET ${fields.map((field, i) => `${WRITABLE[field]} = $${i + 2}`).join(', ')}, updated_at = now() WHERE id = $1`, [userId, ...fields.map((field) => columns[field])]);
  }

  /** The user's identity (sessions, codes, memberships) goes with it by ON DELETE CASCADE; their accounts are deleted before (TeamsService). */
  async delete(userId: string): Promise<void> {
    await this.users.delete({ id: userId });
  }
}
