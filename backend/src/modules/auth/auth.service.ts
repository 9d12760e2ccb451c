import { Inject, Injectable } from '@nestjs/common';
import type { ChangePasswordRequest, ResetPasswordRequest, SignUpRequest, VerifyEmailRequest } from '@shared/auth/auth-schemas';
import { ApiError } from '../../common/http/api-error';
import type { AuthenticatedUser } from './authenticated-user';
import { IDENTITY_PROVIDER, type IdentityProvider, type TokenSet } from './identity-provider';
import { AuthAttemptsService } from './throttling/auth-attempts.service';

/** Statuses that mean "the credential was wrong" (as opposed to "right, but the account is not usable"). */
const CREDENTIAL_FAILURES = new Set([400, 401, 404]);

/**
 * The identity use cases over whichever provider is configured, with brute
 * force throttling around every check of a password or an e-mailed code, and
 * a cap on the mails anyone can make us send.
 */
@Injectable()
export class AuthService {
  constructor(
    @Inject(IDENTITY_PROVIDER) private readonly provider: IdentityProvider,
    private readonly attempts: AuthAttemptsService,
  ) {}

  signUp(request: SignUpRequest) {
    return this.provider.signUp(request);
  }

  verifyEmail(request: VerifyEmailRequest, ip: string): Promise<void> {
    return this.throttled('code', request.email, ip, () => this.provider.confirmSignUp(request.email, request.code));
  }

  resendCode(email: string, ip: string): Promise<void> {
    return this.mailThrottled(email, ip, () => this.provider.resendCode(email));
  }

  login(email: string, password: string, ip: string): Promise<TokenSet> {
    return this.throttled('login', email, ip, () => this.provider.login(email, password));
  }

  refresh(refreshToken: string): Promise<TokenSet> {
    return this.provider.refresh(refreshToken);
  }

  logout(refreshToken: string | undefined): Promise<void> {
    return refreshToken ? this.provider.revokeRefreshToken(refreshToken) : Promise.resolve();
  }

  forgotPassword(email: string, ip: string): Promise<void> {
    return this.mailThrottled(email, ip, () => this.provider.forgotPassword(email));
  }

  resetPassword(request: ResetPasswordRequest, ip: string): Promise<void> {
    return this.throttled('code', request.email, ip, () =>
      this.provider.resetPassword(request.email, request.code, request.new_password),
    );
  }

  changePassword(user: AuthenticatedUser, accessToken: string, request: ChangePasswordRequest, ip: string): Promise<void> {
    return this.throttled('login', user.email, ip, () =>
      this.provider.changePassword(user, accessToken, request.old_password, request.new_password),
    );
  }

  globalSignOut(user: AuthenticatedUser, accessToken: string): Promise<void> {
    return this.provider.globalSignOut(user, accessToken);
  }

  /** Every mail sent on request counts, so nobody can flood an inbox (or the mail provider's quota) through us. */
  private async mailThrottled(email: string, ip: string, send: () => Promise<void>): Promise<void> {
    const keys = this.attempts.keysFor('mail', email, ip);
    await this.attempts.assertAllowed(keys);
    await send();
    await this.attempts.count(keys);
  }

  private async throttled<T>(scope: string, email: string, ip: string, check: () => Promise<T>): Promise<T> {
    const keys = this.attempts.keysFor(scope, email, ip);
    await this.attempts.assertAllowed(keys);
    try {
      const result = await check();
      await this.attempts.clear(keys[0]);
      return result;
    } catch (error) {
      if (error instanceof ApiError && CREDENTIAL_FAILURES.has(error.getStatus())) await this.attempts.count(keys);
      throw error;
    }
  }
}
