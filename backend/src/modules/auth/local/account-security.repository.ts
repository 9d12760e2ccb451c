import { Injectable, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { ResealSweep, resealColumn, type SealedColumn } from '../../../common/crypto/reseal-sweep';
import { SecretBox } from '../../../common/crypto/secret-box';
import type { Queryable } from '../../../common/database/transaction';

/**
 * Authenticator secrets are sealed at rest, bound to their user. Both
 * columns seal for the same place: enabling moves the pending value to
 * totp_secret as it is stored.
 */
const totpPlace = (userId: string) => `account_security.totp_secret:${userId}`;
const TOTP_COLUMNS: SealedColumn[] = ['totp_secret', 'pending_totp_secret'].map((column) => ({
  table: 'account_security',
  column,
  id: 'user_id',
  idType: 'uuid',
  place: totpPlace,
}));

/** One user's row of `account_security` (absent until they set up an authenticator or an operator flags them). */
export interface AccountSecurityRow {
  userId: string;
  totpSecret: string | null;
  totpEnabledAt: Date | null;
  pendingTotpSecret: string | null;
  /** The pending secret as stored: enable() names it, to promote exactly the secret its code was checked against. */
  pendingTotpSecretAsStored: string | null;
  /** The newest 30-second step a code was accepted for: codes of that step or older are refused (no replay). */
  totpLastTimeStep: number | null;
  newPasswordRequired: boolean;
}

interface RawRow {
  user_id: string;
  totp_secret: string | null;
  totp_enabled_at: Date | null;
  pending_totp_secret: string | null;
  totp_last_time_step: string | number | null;
  new_password_required: boolean;
}

function toRow(raw: RawRow, box: SecretBox): AccountSecurityRow {
  const open = (stored: string | null) => (stored === null ? null : box.open(stored, totpPlace(raw.user_id)));
  return {
    userId: raw.user_id,
    totpSecret: open(raw.totp_secret),
    totpEnabledAt: raw.totp_enabled_at ? new Date(raw.totp_enabled_at) : null,
    pendingTotpSecret: open(raw.pending_totp_secret),
    pendingTotpSecretAsStored: raw.pending_totp_secret,
    totpLastTimeStep: raw.totp_last_time_step === null ? null : Number(raw.totp_last_time_step),
    newPasswordRequired: raw.new_password_required,
  };
}

/** All SQL of the `account_security` table. */
@Injectable()
export class AccountSecurityRepository implements OnModuleInit {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly box: SecretBox,
    private readonly resealSweep: ResealSweep,
  ) {}

  onModuleInit(): void {
    for (const column of TOTP_COLUMNS) {
      this.resealSweep.register(`account_security.${column.column}`, (stopping) => resealColumn(this.db, this.box, column, stopping));
    }
  }

  async find(userId: string): Promise<AccountSecurityRow | null> {
    const rows: RawRow[] = await this.db.query(`SELECT * FROM account_security WHERE user_id = $1`, [userId]);
    return rows[0] ? toRow(rows[0], this.box) : null;
  }

  /** A new secret waits for its first code; the enabled one (if any) stays in force meanwhile. */
  async setPendingSecret(userId: string, secret: string): Promise<void> {
    await this.db.query(
      `INSERT INTO account_security (user_id, pending_totp_secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET pending_totp_secret = $2, updated_at = now()`,
      [userId, this.box.seal(secret, totpPlace(userId))],
    );
  }

  /**
   * Promotes the pending secret, provided it is still the one the code was
   * checked against (a concurrent set-up would have replaced it). False when not.
   * `storedSecret` is the pending secret as find() read it from the table.
   */
  async enable(userId: string, storedSecret: string, timeStep: number, tx: Queryable = this.db): Promise<boolean> {
    const [rows]: [unknown[]] = await tx.query(
      `UPDATE account_security
          SET totp_secret = pending_totp_secret, pending_totp_secret = NULL, totp_enabled_at = now(),
              totp_last_time_step = $3, updated_at = now()
        WHERE user_id = $1 AND pending_totp_secret = $2 AND totp_secret IS NULL
        RETURNING user_id`,
      [userId, storedSecret, timeStep],
    );
    return rows.length === 1;
  }

  async disable(userId: string, tx: Queryable = this.db): Promise<void> {
    await tx.query(
      `UPDATE account_security
          SET totp_secret = NULL, pending_totp_secret = NULL, totp_enabled_at = NULL, totp_last_time_step = NULL, updated_at = now()
        WHERE user_id = $1`,
      [userId],
    );
  }

  /**
   * Records that a code of `timeStep` was used. Only moves forward, and only
   * one of two concurrent uses of the same code wins: false for the loser.
   */
  async claimTimeStep(userId: string, timeStep: number): Promise<boolean> {
    const [rows]: [unknown[]] = await this.db.query(
      `UPDATE account_security SET totp_last_time_step = $2, updated_at = now()
        WHERE user_id = $1 AND totp_secret IS NOT NULL AND (totp_last_time_step IS NULL OR totp_last_time_step < $2)
        RETURNING user_id`,
      [userId, timeStep],
    );
    return rows.length === 1;
  }

  async setNewPasswordRequired(userId: string, required: boolean, tx: Queryable = this.db): Promise<void> {
    await tx.query(
      `INSERT INTO account_security (user_id, new_password_required) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET new_password_required = $2, updated_at = now()`,
      [userId, required],
    );
  }
}
