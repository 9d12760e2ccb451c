import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { AssignableRole } from '@cronbeam/shared/accounts/account-rules';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';
import { auditChanges, auditedStatement, type Actor } from '../audit';

export interface InvitationRow {
  id: string;
  account_id: string;
  email: string;
  role: AssignableRole;
  invited_by: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

export interface NewInvitation {
  accountId: string;
  email: string;
  role: AssignableRole;
  tokenHash: string;
  invitedBy: string;
  expiresAt: Date;
}

/** The unique index that allows one open invitation per address and account. */
export const OPEN_INVITATION_INDEX = 'account_invitations_open';

const COLUMNS = 'id, account_id, email, role, invited_by, expires_at, accepted_at, revoked_at, created_at';

/**
 * Every SQL statement on `account_invitations`, one per function. Only a hash
 * of each link's token is stored. An invitation is open until it is
 * accepted, revoked or expires; an open one holds a seat of the account.
 */
@Injectable()
export class InvitationsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Serialises the changes to an account's seats (members and open
   * invitations) until the transaction ends, on both databases.
   */
  async lockSeats(accountId: string, tx: Queryable): Promise<void> {
    await tx.query(`SELECT pg_advisory_xact_lock(hashtext('account-seats:' || $1))`, [accountId]);
  }

  /** Open invitations, oldest first. */
  listOpen(accountId: string): Promise<InvitationRow[]> {
    return this.db.query(
      `SELECT ${COLUMNS} FROM account_invitations
        WHERE account_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        ORDER BY created_at, id`,
      [accountId],
    );
  }

  async findByTokenHash(tokenHash: string): Promise<InvitationRow | null> {
    const rows: InvitationRow[] = await this.db.query(`SELECT ${COLUMNS} FROM account_invitations WHERE token_hash = $1`, [tokenHash]);
    return rows[0] ?? null;
  }

  /** An expired invitation still counts as open for the one-per-address index: marking it revoked lets the address be invited again. */
  async closeExpired(accountId: string, email: string, tx: Queryable): Promise<void> {
    await tx.query(
      `UPDATE account_invitations SET revoked_at = now()
        WHERE account_id = $1 AND lower(email) = lower($2) AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at <= now()`,
      [accountId, email],
    );
  }

  /**
   * Inserts the invitation if the account's members and open invitations
   * leave a seat (`maxSeats` in all); null when they do not. Run after
   * lockSeats in the same transaction, so two invitations cannot take the
   * last seat together. A second open invitation to the same address fails
   * on OPEN_INVITATION_INDEX.
   */
  async insertWithinSeats(row: NewInvitation, maxSeats: number, tx: Queryable): Promise<InvitationRow | null> {
    const rows: InvitationRow[] = await tx.query(
      `INSERT INTO account_invitations (account_id, email, role, token_hash, invited_by, expires_at)
       SELECT $1, $2, $3, $4, $5, $6
        WHERE (SELECT count(*) FROM account_members WHERE account_id = $1)
            + (SELECT count(*) FROM account_invitations WHERE account_id = $1 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()) < $7
       RETURNING ${COLUMNS}`,
      [row.accountId, row.email, row.role, row.tokenHash, row.invitedBy, row.expiresAt, maxSeats],
    );
    return rows[0] ?? null;
  }

  /** Revokes an open invitation with the audit entry of it (address and role, never the token); false when the account has no such open invitation. */
  async revoke(actor: Actor, accountId: string, invitationId: string): Promise<boolean> {
    const rows: unknown[] = await this.db.query(
      ...auditedStatement(actor, {
        ctes: `c AS (UPDATE account_invitations SET revoked_at = now()
                      WHERE account_id = $1 AND id = $2 AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
                      RETURNING id, email, role)`,
        params: [accountId, invitationId],
        from: 'c',
        action: 'invitation.revoked',
        targetType: 'invitation',
        targetId: 'c.id',
        changes: auditChanges(`jsonb_build_object('email', c.email, 'role', c.role, 'status', 'open')`, `jsonb_build_object('email', c.email, 'role', c.role, 'status', 'revoked')`, []),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  /**
   * Uses the invitation whose token this is, if it is open and was sent to
   * `email`: marks it accepted and answers it; null otherwise. The update
   * locks the row, so of two acceptances at once the second finds it used.
   */
  async accept(tokenHash: string, email: string, tx: Queryable): Promise<InvitationRow | null> {
    const result = await tx.query(
      `UPDATE account_invitations SET accepted_at = now()
        WHERE token_hash = $1 AND lower(email) = lower($2) AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > now()
        RETURNING ${COLUMNS}`,
      [tokenHash, email],
    );
    return returnedRows<InvitationRow>(result)[0] ?? null;
  }
}
