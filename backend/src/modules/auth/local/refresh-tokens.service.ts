import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { RefreshTokensRepository } from './refresh-tokens.repository';
import { newOpaqueSecret, sha256 } from '../../../common/crypto/secret-hash';
import type { Queryable } from '../../../common/database/transaction';

const DAY_MS = 86_400_000;

/**
 * Opaque refresh tokens, stored as hashes and rotated on every use. A family
 * is the chain of tokens from one sign-in; it expires as a whole
 * AUTH_REFRESH_TOKEN_TTL_DAYS after that sign-in.
 */
@Injectable()
export class RefreshTokensService {
  private readonly logger = new Logger(RefreshTokensService.name);

  constructor(
    private readonly config: AppConfig,
    private readonly tokens: RefreshTokensRepository,
  ) {}

  /** Starts a new family (a sign-in whose credential check happened at `authenticatedAt`). */
  async issue(userId: string, authenticatedAt: Date): Promise<string> {
    const expiresAt = new Date(Date.now() + this.config.env.AUTH_REFRESH_TOKEN_TTL_DAYS * DAY_MS);
    return this.insert(userId, randomUUID(), expiresAt, authenticatedAt);
  }

  /**
   * Exchanges a refresh token for its successor. A token that was already
   * exchanged (or revoked) is a replay: the whole family is revoked and the
   * caller must sign in again.
   */
  async rotate(token: string): Promise<{ userId: string; refreshToken: string; authenticatedAt: Date }> {
    // Marking the token used is the claim: of two concurrent exchanges only one updates the row.
    const row = await this.tokens.claim(sha256(token));
    if (!row) {
      await this.revokeFamilyOf(token, 'Refresh token reused; its family is revoked');
      throw ApiError.unauthorized(AUTH_MESSAGES.invalidRefreshToken);
    }
    // The successor keeps the sign-in's time: refreshing proves no credential.
    const authenticatedAt = new Date(row.authenticated_at);
    const refreshToken = await this.insert(row.user_id, row.family_id, new Date(row.expires_at), authenticatedAt);
    return { userId: row.user_id, refreshToken, authenticatedAt };
  }

  /** Logout: the token's family ends. Unknown tokens are ignored (logout always succeeds). */
  async revoke(token: string): Promise<void> {
    await this.revokeFamilyOf(token);
  }

  /** Global sign-out, password change and reset: every family of the user ends (in the transaction `tx` of the change when given). */
  async revokeAllOf(userId: string, tx?: Queryable): Promise<void> {
    await this.tokens.revokeAllOf(userId, tx);
  }

  private async revokeFamilyOf(token: string, logMessage?: string): Promise<void> {
    const revoked = await this.tokens.revokeFamilyOf(sha256(token));
    if (logMessage && revoked) this.logger.warn({ userId: revoked.user_id, familyId: revoked.family_id }, logMessage);
  }

  private async insert(userId: string, familyId: string, expiresAt: Date, authenticatedAt: Date): Promise<string> {
    const token = newOpaqueSecret();
    await this.tokens.insert({ userId, familyId, tokenHash: sha256(token), expiresAt, authenticatedAt });
    return token;
  }
}
