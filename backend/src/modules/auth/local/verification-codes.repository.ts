import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { returnedRows } from '../../../common/database/query-rows';
import { VerificationCodeEntity, type CodePurpose } from './verification-code.entity';

/** Every SQL statement on `verification_codes` (hashes only), one per function. */
@Injectable()
export class VerificationCodesRepository {
  constructor(@InjectRepository(VerificationCodeEntity) private readonly codes: Repository<VerificationCodeEntity>) {}

  /** Stores the user's code for the purpose, replacing the previous one (its guesses start from zero). */
  async replace(userId: string, purpose: CodePurpose, codeHash: string, expiresAt: Date): Promise<void> {
    await this.codes.upsert({ userId, purpose, codeHash, expiresAt, attempts: 0, createdAt: new Date() }, ['userId', 'purpose']);
  }

  /**
   * Takes one guess of the live code (unexpired, guesses left below
   * `maxAttempts`) and answers its hash; null when there is no such code.
   * The conditional update is the count: concurrent guesses each take their own.
   */
  async takeGuess(userId: string, purpose: CodePurpose, maxAttempts: number): Promise<string | null> {
    const [row] = returnedRows<{ code_hash: string }>(
      await this.codes.query(
        `UPDATE verification_codes SET attempts = attempts + 1
          WHERE user_id = $1 AND purpose = $2 AND expires_at > now() AND attempts < $3
          RETURNING code_hash`,
        [userId, purpose, maxAttempts],
      ),
    );
    return row?.code_hash ?? null;
  }

  /** Deletes the code if it is still the one with this hash; false when it is gone (of two concurrent uses one wins). */
  async deleteIfCurrent(userId: string, purpose: CodePurpose, codeHash: string): Promise<boolean> {
    const result = await this.codes.delete({ userId, purpose, codeHash });
    return Boolean(result.affected);
  }
}
