import { Injectable } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { newOpaqueSecret, sha256 } from '../../../common/crypto/secret-hash';
import { SignInChallengesRepository, type LocalChallengeName } from './sign-in-challenges.repository';

/**
 * The step between a right password and the tokens. The session token is
 * random, stored hashed, lives AUTH_CHALLENGE_TTL_SECONDS (3 minutes) and is
 * closed by its first right answer; wrong answers leave it open (they are
 * throttled per account instead), so a mistyped code can be retyped.
 */
@Injectable()
export class SignInChallengesService {
  constructor(
    private readonly config: AppConfig,
    private readonly challenges: SignInChallengesRepository,
  ) {}

  async open(userId: string, challenge: LocalChallengeName): Promise<string> {
    const session = newOpaqueSecret();
    await this.challenges.insert(sha256('challenge', session), userId, challenge, this.config.env.AUTH_CHALLENGE_TTL_SECONDS);
    return session;
  }

  /** The user a still-open session was issued to for this challenge; every other case reads as an expired session. */
  async userOf(session: string, challenge: string): Promise<string> {
    const open = await this.challenges.findOpen(sha256('challenge', session));
    if (!open || open.challenge !== challenge) throw ApiError.unauthorized(AUTH_MESSAGES.challengeSessionExpired);
    return open.userId;
  }

  /** Closes the session after a right answer; of two concurrent right answers only one gets through. */
  async close(session: string): Promise<void> {
    if (!(await this.challenges.markAnswered(sha256('challenge', session)))) throw ApiError.unauthorized(AUTH_MESSAGES.challengeSessionExpired);
  }
}
