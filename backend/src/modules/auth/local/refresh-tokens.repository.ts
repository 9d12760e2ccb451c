import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { returnedRows } from '../../../common/database/query-rows';
import { RefreshTokenEntity } from './refresh-token.entity';
import type { Queryable } from '../../../common/database/transaction';

/** A token just marked used: what its successor inherits. */
export interface ClaimedRefreshToken {
  user_id: string;
  family_id: string;
  expires_at: Date;
  authenticated_at: Date;
}

/** Every SQL statement on `refresh_tokens` (hashes only), one per function. */
@Injectable()
export class RefreshTokensRepository {
  constructor(@InjectRepository(RefreshTokenEntity) private readonly tokens: Repository<RefreshTokenEntity>) {}

  async insert(row: Pick<RefreshTokenEntity, 'userId' | 'familyId' | 'tokenHash' | 'expiresAt' | 'authenticatedAt'>): Promise<void> {
    await this.tokens.insert(row);
  }

  /**
   * Marks the live token with this hash used and answers it; null when there
   * is none. Marking is the claim: of two concurrent exchanges only one updates the row.
   */
  async claim(tokenHash: string): Promise<ClaimedRefreshToken | null> {
    const [row] = returnedRows<ClaimedRefreshToken>(
      await this.tokens.query(
        `UPDATE refresh_tokens SET used_at = now()
          WHERE token_hash = $1 AND used_at IS NULL AND revoked_at IS NULL AND expires_at > now()
          RETURNING user_id, family_id, expires_at, authenticated_at`,
        [tokenHash],
      ),
    );
    return row ?? null;
  }

  async revokeAllOf(userId: string, tx: Queryable = this.tokens): Promise<void> {
    await tx.query(`UPDATE refresh_tokens SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL`, [userId]);
  }

  /** Revokes every live token of the family the hashed token belongs to; answers the family and its user when any was live. */
  async revokeFamilyOf(tokenHash: string): Promise<{ family_id: string; user_id: string } | null> {
    const [row] = returnedRows<{ family_id: string; user_id: string }>(
      await this.tokens.query(
        `UPDATE refresh_tokens SET revoked_at = now()
          WHERE revoked_at IS NULL AND family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)
          RETURNING family_id, user_id`,
        [tokenHash],
      ),
    );
    return row ?? null;
  }
}
