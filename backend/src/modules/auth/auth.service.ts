import { Inject, Injectable, Logger } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { ChangePasswordRequest, ResetPasswordRequest, SignUpRequest, VerifyEmailRequest } from '@cronbeam/shared/auth/auth-schemas';
import type { ReauthenticateRequest, RecoveryCodesResponse, RespondToChallengeRequest, SecondFactorProof } from '@cronbeam/shared/auth/mfa-schemas';
import { ApiError } from '../../common/http/api-error';
import { AuditService, type AuditEntry } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import type { AuthenticatedUser } from './authenticated-user';
import { securityNoticeMail, type SecurityEvent } from './identity-mails';
import { IDENTITY_PROVIDER, type IdentityProvider, type SignInResult, type TokenSet } from './identity-provider';
import type { RequestOrigin } from './request-credentials';
import { AuthAttemptsService } from './throttling/auth-attempts.service';
import { UsersService } from './users.service';

/** How an entry shows a secret that was set or changed (a password, an authenticator secret, recovery codes). */
const MASKED = '***';
const SET = { before: null, after: MASKED };
const CHANGED = { before: MASKED, after: MASKED };

/** Statuses that mean "the credential was wrong" (as opposed to "right, but the account is not usable"). */
const CREDENTIAL_FAILURES = new Set([400, 401, 404]);

/**
 * A failure that was a guess at a secret. An unknown or expired challenge
 * session is not: it names an account but proves nothing, and counting it
 * would let anyone who knows an email lock its owner out of the code step.
 */
function isWrongGuess(error: unknown): boolean {
  return error instanceof ApiError && CREDENTIAL_FAILURES.has(error.getStatus()) && error.detail !== AUTH_MESSAGES.challengeSessionExpired;
}

/**
 * The identity use cases over whichever provider is configured, with brute
 * force throttling around every check of a password or an e-mailed code, and
 * a cap on the mails anyone can make us send.
 */
@Injectable()
export class AuthService {
  private readonly logger = new Logger(AuthService.name);
  constructor(
    @Inject(IDENTITY_PROVIDER) private readonly provider: IdentityProvider,
    private readonly attempts: AuthAttemptsService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly audit: AuditService,
  ) {}

  /** Every sign-up from an address counts (an account and a mail each), so nobody can mass-create accounts or mail strangers through us. */
  async signUp(request: SignUpRequest, origin: RequestOrigin) {
    await this.attempts.reserve([this.attempts.signUpKey(origin.ip)], AUTH_MESSAGES.tooManySignUps);
    const created = await this.provider.signUp(request);
    await this.record(created.userId, origin, 'user.signed_up', { name: { before: null, after: request.name }, email: { before: null, after: request.email }, password: SET });
    return created;
  }

  async verifyEmail(request: VerifyEmailRequest, origin: RequestOrigin): Promise<void> {
    await this.throttled('code', request.email, origin.ip, () => this.provider.confirmSignUp(request.email, request.code));
    await this.recordFor(request.email, origin, 'user.email_verified', { email_verified: { before: false, after: true } });
  }

  resendCode(email: string, ip: string): Promise<void> {
    return this.mailThrottled(email, ip, () => this.provider.resendCode(email));
  }

  login(email: string, password: string, deviceKey: string | undefined, ip: string): Promise<SignInResult> {
    return this.throttled('login', email, ip, () => this.provider.login(email, password, deviceKey));
  }

  /**
   * Second-factor codes have a bucket of their own ('mfa'): a right password
   * clears the password bucket, and must not reset the count of wrong codes.
   */
  async respondToChallenge(answer: RespondToChallengeRequest, origin: RequestOrigin): Promise<SignInResult> {
    const ip = origin.ip;
    const guessable = answer.challenge === 'SOFTWARE_TOKEN_MFA' || answer.challenge === 'MFA_SETUP';
    const result = guessable
      ? await this.throttled('mfa', answer.email, ip, () => this.provider.respondToChallenge(answer))
      : await this.provider.respondToChallenge(answer);
    // A sign-in that had to set up an authenticator turned two-factor on: a change of the user's security settings.
    if (result.kind === 'tokens' && answer.challenge === 'MFA_SETUP') await this.recordFor(answer.email, origin, 'user.two_factor_enabled', { two_factor: { before: false, after: true }, totp_secret: SET });
    if (result.kind === 'tokens' && result.deviceKey) {
      const user = await this.users.findByEmail(answer.email);
      if (user) await this.notify(user.id, { kind: 'new_device', deviceName: answer.device_name?.trim() || 'Unnamed device', ip });
    }
    return result;
  }

  twoFactorStatus(user: AuthenticatedUser, accessToken: string) {
    return this.provider.twoFactorStatus(user, accessToken);
  }

  setUpTotp(user: AuthenticatedUser, accessToken: string) {
    return this.provider.setUpTotp(user, accessToken);
  }

  async enableTotp(user: AuthenticatedUser, accessToken: string, code: string, origin: RequestOrigin): Promise<RecoveryCodesResponse> {
    const codes = await this.throttled('mfa', user.email, origin.ip, () => this.provider.enableTotp(user, accessToken, code));
    await this.record(user.id, origin, 'user.two_factor_enabled', { two_factor: { before: false, after: true }, totp_secret: SET, ...(codes.length > 0 ? { recovery_codes: SET } : {}) });
    await this.notify(user.id, { kind: 'two_factor_enabled' });
    return { recovery_codes: codes };
  }

  async disableTotp(user: AuthenticatedUser, accessToken: string, proof: SecondFactorProof, origin: RequestOrigin): Promise<void> {
    await this.throttled('mfa', user.email, origin.ip, () => this.provider.disableTotp(user, accessToken, proof));
    await this.record(user.id, origin, 'user.two_factor_disabled', { two_factor: { before: true, after: false }, totp_secret: { before: MASKED, after: null } });
    await this.notify(user.id, { kind: 'two_factor_disabled' });
  }

  async regenerateRecoveryCodes(user: AuthenticatedUser, accessToken: string, proof: SecondFactorProof, origin: RequestOrigin): Promise<RecoveryCodesResponse> {
    const codes = await this.throttled('mfa', user.email, origin.ip, () => this.provider.regenerateRecoveryCodes(user, accessToken, proof));
    await this.record(user.id, origin, 'user.recovery_codes_regenerated', { recovery_codes: CHANGED });
    return { recovery_codes: codes };
  }

  listDevices(user: AuthenticatedUser, accessToken: string) {
    return this.provider.listDevices(user, accessToken);
  }

  async forgetDevice(user: AuthenticatedUser, accessToken: string, deviceId: string, origin: RequestOrigin): Promise<void> {
    await this.provider.forgetDevice(user, accessToken, deviceId);
    await this.record(user.id, origin, 'user.device_forgotten', { remembered: { before: true, after: false } }, { type: 'device', id: deviceId });
  }

  async updateName(user: AuthenticatedUser, accessToken: string, name: string, origin: RequestOrigin): Promise<void> {
    const before = (await this.users.findById(user.id))?.name ?? null;
    await this.provider.updateName(user, accessToken, name);
    if (before !== name) await this.record(user.id, origin, 'user.profile_updated', { name: { before, after: name } });
  }

  /** Operators' command; the account must exist. */
  async requireNewPassword(email: string, origin: RequestOrigin): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) throw ApiError.notFound(AUTH_MESSAGES.userDoesNotExist);
    await this.provider.requireNewPassword(user.id);
    // The operator acts: no user or key of the account is the actor.
    await this.audit.recordDone(
      { accountId: user.id, userId: null, keyId: null, ip: origin.ip, requestId: origin.requestId },
      { action: 'user.new_password_required', targetType: 'user', targetId: user.id, changes: { password_change_required: { before: false, after: true } } },
    );
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

  async resetPassword(request: ResetPasswordRequest, origin: RequestOrigin): Promise<void> {
    await this.throttled('code', request.email, origin.ip, () => this.provider.resetPassword(request.email, request.code, request.new_password));
    await this.recordFor(request.email, origin, 'user.password_reset', { password: CHANGED });
  }

  async changePassword(user: AuthenticatedUser, accessToken: string, request: ChangePasswordRequest, origin: RequestOrigin): Promise<void> {
    await this.throttled('login', user.email, origin.ip, () => this.provider.changePassword(user, accessToken, request.old_password, request.new_password));
    await this.record(user.id, origin, 'user.password_changed', { password: CHANGED });
    await this.notify(user.id, { kind: 'password_changed' });
  }

  /**
   * A fresh session for the signed-in user: the password (and second factor)
   * checked again, throttled as a sign-in. The replaced session's refresh
   * token, when given, ends, so confirming does not leave a spare session behind.
   */
  async reauthenticate(user: AuthenticatedUser, accessToken: string, request: ReauthenticateRequest, ip: string): Promise<TokenSet> {
    const proof = { code: request.code, recovery_code: request.recovery_code };
    const tokens = await this.throttled('login', user.email, ip, () => this.provider.reauthenticate(user, accessToken, request.password, proof));
    if (request.refresh_token) await this.provider.revokeRefreshToken(request.refresh_token);
    return tokens;
  }

  async globalSignOut(user: AuthenticatedUser, accessToken: string, origin: RequestOrigin): Promise<void> {
    await this.provider.globalSignOut(user, accessToken);
    await this.record(user.id, origin, 'user.signed_out_everywhere', { sessions: { before: 'active', after: 'revoked' } });
  }

  /**
   * The entry of a change to the user's identity or security settings, in
   * their personal account's log (its id is theirs), the user acting; every
   * secret in `changes` already shown as "***". Written once the identity
   * provider made the change (see AuditService.recordDone); target: the user
   * unless `target` says otherwise.
   */
  private record(userId: string, origin: RequestOrigin, action: string, changes: AuditEntry['changes'], target: { type: string; id: string } = { type: 'user', id: userId }): Promise<void> {
    return this.audit.recordDone({ accountId: userId, userId, keyId: null, ip: origin.ip, requestId: origin.requestId }, { action, targetType: target.type, targetId: target.id, changes });
  }

  /** record() for a user known by address (the routes used before signing in). */
  private async recordFor(email: string, origin: RequestOrigin, action: string, changes: AuditEntry['changes']): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (user) await this.record(user.id, origin, action, changes);
  }

  /** A security notice to the account's address. The change already happened, so a mail failure must not undo or fail it. */
  private async notify(userId: string, event: SecurityEvent): Promise<void> {
    const user = await this.users.findById(userId);
    if (!user) return;
    await this.mail.send(securityNoticeMail(user.email, user.name, event, new Date())).catch((err: unknown) => {
      this.logger.warn({ err, userId, event: event.kind }, 'Could not send a security notice');
    });
  }

  /** Every mail sent on request counts, so nobody can flood an inbox (or the mail provider's quota) through us; one that was not sent is given back. */
  private async mailThrottled(email: string, ip: string, send: () => Promise<void>): Promise<void> {
    const reservation = await this.attempts.reserve(this.attempts.keysFor('mail', email, ip));
    try {
      await send();
    } catch (error) {
      await this.attempts.giveBack(reservation);
      throw error;
    }
  }

  /**
   * Runs a check of a secret only after reserving an attempt for it, so a
   * burst of guesses cannot all be checked before any is counted. A wrong
   * guess keeps its reservation; a right answer clears the account's count
   * and gives the address its attempt back; any other failure gives both back.
   */
  private async throttled<T>(scope: string, email: string, ip: string, check: () => Promise<T>): Promise<T> {
    const [account, address] = this.attempts.keysFor(scope, email, ip);
    const reservation = await this.attempts.reserve([account!, address!]);
    let result: T;
    try {
      result = await check();
    } catch (error) {
      if (!isWrongGuess(error)) await this.attempts.giveBack(reservation);
      throw error;
    }
    await this.attempts.clear(account!);
    await this.attempts.giveBack(reservation, [address!]);
    return result;
  }
}
