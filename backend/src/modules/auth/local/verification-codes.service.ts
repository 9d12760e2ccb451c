import { randomInt, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { VERIFICATION_CODE_LENGTH } from '@cronbeam/shared/auth/auth-schemas';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { sha256 } from '../../../common/crypto/secret-hash';
import type { CodePurpose } from './verification-code.entity';
import { VerificationCodesRepository } from './verification-codes.repository';

/**
 * Six-digit codes sent by mail to confirm an address or reset a password. A
 * new code replaces the previous one; a code dies when used, when it expires
 * or after AUTH_CODE_MAX_ATTEMPTS wrong guesses.
 */
@Injectable()
export class VerificationCodesService {
  constructor(
    private readonly config: AppConfig,
    private readonly codes: VerificationCodesRepository,
  ) {}

  async issue(userId: string, purpose: CodePurpose): Promise<string> {
    const code = String(randomInt(0, 10 ** VERIFICATION_CODE_LENGTH)).padStart(VERIFICATION_CODE_LENGTH, '0');
    await this.codes.replace(userId, purpose, sha256(userId, purpose, code), new Date(Date.now() + this.config.env.AUTH_CODE_TTL_SECONDS * 1000));
    return code;
  }

  /**
   * Consumes the code when it matches; otherwise the guess is spent and the
   * invalid-code error thrown. Each check first takes one of the code's
   * AUTH_CODE_MAX_ATTEMPTS in a conditional update, so concurrent guesses
   * cannot all be checked against a fresh count: past the limit (or expiry,
   * or use) the code is dead and every answer is the expired-code error.
   * Of two concurrent right answers only one consumes it.
   */
  async consume(userId: string, purpose: CodePurpose, code: string): Promise<void> {
    const codeHash = await this.codes.takeGuess(userId, purpose, this.config.env.AUTH_CODE_MAX_ATTEMPTS);
    if (codeHash === null) throw ApiError.badRequest(AUTH_MESSAGES.codeExpired);
    const expected = Buffer.from(codeHash);
    const actual = Buffer.from(sha256(userId, purpose, code));
    if (!(expected.length === actual.length && timingSafeEqual(expected, actual))) throw ApiError.badRequest(AUTH_MESSAGES.codeMismatch);
    if (!(await this.codes.deleteIfCurrent(userId, purpose, codeHash))) throw ApiError.badRequest(AUTH_MESSAGES.codeExpired);
  }
}
