import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { JsonWebKey } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { resealColumn, type ResealOutcome, type SealedColumn } from '../../common/crypto/reseal-sweep';
import type { SecretBox } from '../../common/crypto/secret-box';

/** The private halves are sealed at rest, each bound to its key id; the public halves are published. */
export const TARGET_KEY_COLUMN: SealedColumn = { table: 'target_token_keys', column: 'private_key', id: 'kid', idType: 'text', place: (kid) => `target_token_keys.private_key:${kid}` };

export interface TargetTokenKeyRow {
  kid: string;
  /** Sealed PKCS#8 PEM. */
  private_key: string;
  public_jwk: JsonWebKey;
  created_at: Date;
}

/** Every SQL statement on `target_token_keys`, one per function. */
@Injectable()
export class TargetTokenKeysRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Every key, oldest first: the oldest signs (so instances that each made one at once agree), all are published. */
  async all(): Promise<TargetTokenKeyRow[]> {
    const rows: TargetTokenKeyRow[] = await this.db.query(`SELECT kid, private_key, public_jwk, created_at FROM target_token_keys ORDER BY created_at, kid`);
    return rows.map((r) => ({ ...r, public_jwk: typeof r.public_jwk === 'string' ? (JSON.parse(r.public_jwk) as JsonWebKey) : r.public_jwk }));
  }

  async insert(row: Pick<TargetTokenKeyRow, 'kid' | 'private_key' | 'public_jwk'>): Promise<void> {
    await this.db.query(`INSERT INTO target_token_keys (kid, private_key, public_jwk) VALUES ($1, $2, $3::jsonb) ON CONFLICT (kid) DO NOTHING`, [
      row.kid,
      row.private_key,
      JSON.stringify(row.public_jwk),
    ]);
  }

  /** Brings the sealed private halves to the current master key (the reseal sweep's pass over this table). */
  reseal(box: SecretBox, stopping: () => boolean): Promise<ResealOutcome> {
    return resealColumn(this.db, box, TARGET_KEY_COLUMN, stopping);
  }
}
