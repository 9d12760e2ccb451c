import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../../../common/database/transaction';

/** All SQL of the `recovery_codes` table: hashes only, each usable once. */
@Injectable()
export class RecoveryCodesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Replaces every code of the user (old ones, used or not, stop working). */
  async replaceAll(userId: string, codeHashes: string[], tx: Queryable = this.db): Promise<void> {
    // One statement, so the old set and the new one never coexist or vanish together.
    await tx.query(
      `WITH dropped AS (DELETE FROM recovery_codes WHERE user_id = $1)
       INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`,
      [userId, codeHashes],
    );
  }

  /** Marks the code used; false when it is unknown or already used (one of two concurrent uses wins). */
  async consume(userId: string, codeHash: string): Promise<boolean> {
    const [rows]: [unknown[]] = await this.db.query(
      `UPDATE recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING user_id`,
      [userId, codeHash],
    );
    return rows.length === 1;
  }

  async countUnused(userId: string): Promise<number> {
    const rows: Array<{ n: string | number }> = await this.db.query(
      `SELECT count(*) AS n FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
    return Number(rows[0]?.n ?? 0);
  }

  async deleteAll(userId: string, tx: Queryable = this.db): Promise<void> {
    await tx.query(`DELETE FROM recovery_codes WHERE user_id = $1`, [userId]);
  }
}
