import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { returnedRows } from '../../common/database/query-rows';
import type { Queryable } from '../../common/database/transaction';

export interface AccountRow {
  id: string;
  name: string;
  personal: boolean;
  created_at: Date;
}

/** Every SQL statement on `accounts`, one per function. A personal account has its user's id. */
@Injectable()
export class AccountsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async findById(accountId: string): Promise<AccountRow | null> {
    const rows: AccountRow[] = await this.db.query(`SELECT id, name, personal, created_at FROM accounts WHERE id = $1`, [accountId]);
    return rows[0] ?? null;
  }

  /** A team account (never personal); its owner is added in the same transaction. */
  async insertTeam(name: string, tx: Queryable): Promise<AccountRow> {
    const rows: AccountRow[] = await tx.query(`INSERT INTO accounts (name, personal) VALUES ($1, false) RETURNING id, name, personal, created_at`, [name]);
    return rows[0]!;
  }

  async rename(accountId: string, name: string): Promise<AccountRow | null> {
    const result = await this.db.query(`UPDATE accounts SET name = $2 WHERE id = $1 RETURNING id, name, personal, created_at`, [accountId, name]);
    return returnedRows<AccountRow>(result)[0] ?? null;
  }

  /** Deletes a team account with everything it holds (ON DELETE CASCADE); a personal account is never deleted here. */
  async deleteTeam(accountId: string): Promise<boolean> {
    const result = await this.db.query(`DELETE FROM accounts WHERE id = $1 AND personal = false RETURNING id`, [accountId]);
    return returnedRows(result).length > 0;
  }
}
