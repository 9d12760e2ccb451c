import { randomInt, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AUTH_MESSAGES } from '@shared/auth/auth-messages';
import { VERIFICATION_CODE_LENGTH } from '@shared/auth/auth-schemas';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { sha256 } from './secret-hash';
import { VerificationCodeEntity, type CodePurpose } from './verification-code.entity';

/**
 * Six-digit codes sent by mail to confirm an address or reset a password. A
 * new code replaces the previous one; a code dies when used, when it expires
 * or after AUTH_CODE_MAX_ATTEMPTS wrong guesses.
 */
@Injectable()
export class VerificationCodesService {
  constructor(
    private readonly config: AppConfig,
    @InjectRepository(VerificationCodeEntity) private readonly codes: Repository<VerificationCodeEntity>,
  ) {}

  async issue(userId: string, purpose: CodePurpose): Promise<string> {
    const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
    await this.codes.upsert(
      {
        userId,
        purpose,
        codeHash: sha256(userId, purpose, code),
        expiresAt: new Date(Date.now() + this.config.env.AUTH_CODE_TTL_SECONDS * 1000),
        attempts: 0,
        createdAt: new Date(),
      },
      ['userId', 'purpose'],
    );
    return code;
  }

  /** Consumes the code when it matches; otherwise counts the wrong guess and throws the invalid-code error (or, past the limit, the attempts-exceeded one). */
  async consume(userId: string, purpose: CodePurpose, code: string): Promise<void> {
    const row = await this.codes.findOneBy({ userId, purpose });
    if (!row || row.expiresAt.getTime() <= Date.now()) throw ApiError.badRequest(AUTH_MESSAGES.codeExpired);
    const expected = Buffer.from(row.codeHash);
    const actual = Buffer.from(sha256(userId, purpose, code));
    if (expected.length === actual.length && timingSafeEqual(expected, actual)) {
      await this.codes.delete({ userId, purpose });
      return;
    }
    if (row.attempts + 1 >= this.config.env.AUTH_CODE_MAX_ATTEMPTS) await this.codes.delete({ userId, purpose });
    else await this.codes.increment({ userId, purpose }, 'attempts', 1);
    throw ApiError.badRequest(AUTH_MESSAGES.codeMismatch);
  }
}
