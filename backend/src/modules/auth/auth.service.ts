import { Inject, Injectable, Logger } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { ChangePasswordRequest, ResetPasswordRequest, SignUpRequest, VerifyEmailRequest } from '@cronbeam/shared/auth/auth-schemas';
import type { ReauthenticateRequest, RecoveryCodesResponse, RespondToChallengeRequest, SecondFactorProof } from '@cronbeam/shared/auth/mfa-schemas';
import { ApiError } from '../../common/http/api-error';
import { AuditService, type AuditEntry } from '../audit/audit.service';
import { MailService } from '../mail/mail.service';
import type { AuthenticatedUser } from './authenticated-user';
import { securityNoticeMail, type SecurityEvent } from './identity-mails';
import { IDENTITY_PROVIDER, type IdentityProvider, type RecordChange, type SignInResult, type SocialIdentity, type TokenSet } from './identity-provider';
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
    return this.provider.signUp(request, this.recorder(origin, 'user.signed_up', { name: { before: null, after: request.name }, email: { before: null, after: request.email }, password: SET }));
  }

  /**
   * The session of someone a social provider vouched for. A first sign-in
   * creates their account: `user.signed_up` as for an email sign-up, with
   * the provider in place of a password (none of its tokens or ids).
   */
  socialSession(identity: SocialIdentity, origin: RequestOrigin): Promise<SignInResult> {
    const changes = { name: { before: null, after: identity.name }, email: { before: null, after: identity.email }, social_provider: { before: null, after: identity.provider } };
    return this.provider.socialSession(identity, this.recorder(origin, 'user.signed_up', changes));
  }

  async verifyEmail(request: VerifyEmailRequest, origin: RequestOrigin): Promise<void> {
    const record = this.recorder(origin, 'user.email_verified', { email_verified: { before: false, after: true } });
    await this.throttled('code', request.email, origin.ip, () => this.provider.confirmSignUp(request.email, request.code, record));
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
    // A sign-in that had the user choose a new password, or set up an authenticator, changed their security settings.
    const record =
      answer.challenge === 'NEW_PASSWORD_REQUIRED'
        ? this.recorder(origin, 'user.password_changed', { password: CHANGED, password_change_required: { before: true, after: false } })
        : this.recorder(origin, 'user.two_factor_enabled', { two_factor: { before: false, after: true }, totp_secret: SET });
    const result = guessable
      ? await this.throttled('mfa', answer.email, ip, () => this.provider.respondToChallenge(answer, record))
      : await this.provider.respondToChallenge(answer, record);
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
    // The entry says whether recovery codes came with it: the built-in provider makes them, the managed one has none.
    const recoveryCodes: AuditEntry['changes'] = this.provider.name === 'local' ? { recovery_codes: SET } : {};
    const record = this.recorder(origin, 'user.two_factor_enabled', { two_factor: { before: false, after: true }, totp_secret: SET, ...recoveryCodes });
    const codes = await this.throttled('mfa', user.email, origin.ip, () => this.provider.enableTotp(user, accessToken, code, record));
    await this.notify(user.id, { kind: 'two_factor_enabled' });
    return { recovery_codes: codes };
  }

  async disableTotp(user: AuthenticatedUser, accessToken: string, proof: SecondFactorProof, origin: RequestOrigin): Promise<void> {
    const record = this.recorder(origin, 'user.two_factor_disabled', { two_factor: { before: true, after: false }, totp_secret: { before: MASKED, after: null } });
    await this.throttled('mfa', user.email, origin.ip, () => this.provider.disableTotp(user, accessToken, proof, record));
    await this.notify(user.id, { kind: 'two_factor_disabled' });
  }

  async regenerateRecoveryCodes(user: AuthenticatedUser, accessToken: string, proof: SecondFactorProof, origin: RequestOrigin): Promise<RecoveryCodesResponse> {
    const record = this.recorder(origin, 'user.recovery_codes_regenerated', { recovery_codes: CHANGED });
    const codes = await this.throttled('mfa', user.email, origin.ip, () => this.provider.regenerateRecoveryCodes(user, accessToken, proof, record));
    return { recovery_codes: codes };
  }

  listDevices(user: AuthenticatedUser, accessToken: string) {
    return this.provider.listDevices(user, accessToken);
  }

  async forgetDevice(user: AuthenticatedUser, accessToken: string, deviceId: string, origin: RequestOrigin): Promise<void> {
    await this.provider.forgetDevice(user, accessToken, deviceId, this.recorder(origin, 'user.device_forgotten', { remembered: { before: true, after: false } }, { target: { type: 'device', id: deviceId } }));
  }

  async updateName(user: AuthenticatedUser, accessToken: string, name: string, origin: RequestOrigin): Promise<void> {
    const before = (await this.users.findById(user.id))?.name ?? null;
    // The same name again changes nothing: no entry.
    const record: RecordChange = before === name ? () => Promise.resolve() : this.recorder(origin, 'user.profile_updated', { name: { before, after: name } });
    await this.provider.updateName(user, accessToken, name, record);
  }

  /** Operators' command; the account must exist. */
  async requireNewPassword(email: string, origin: RequestOrigin): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (!user) throw ApiError.notFound(AUTH_MESSAGES.userDoesNotExist);
    // The operator acts: no user or key of the account is the actor.
    await this.provider.requireNewPassword(user.id, this.recorder(origin, 'user.new_password_required', { password_change_required: { before: false, after: true } }, { byOperator: true }));
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
    const record = this.recorder(origin, 'user.password_reset', { password: CHANGED });
    await this.throttled('code', request.email, origin.ip, () => this.provider.resetPassword(request.email, request.code, request.new_password, record));
  }

  async changePassword(user: AuthenticatedUser, accessToken: string, request: ChangePasswordRequest, origin: RequestOrigin): Promise<void> {
    const record = this.recorder(origin, 'user.password_changed', { password: CHANGED });
    await this.throttled('login', user.email, origin.ip, () => this.provider.changePassword(user, accessToken, request.old_password, request.new_password, record));
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
    await this.provider.globalSignOut(user, accessToken, this.recorder(origin, 'user.signed_out_everywhere', { sessions: { before: 'active', after: 'revoked' } }));
  }

  /**
   * How the provider writes the entry of a change to a user's identity or
   * security settings: in their personal account's log (its id is theirs),
   * the user acting (no one of the account when `byOperator`); every secret
   * in `changes` already shown as "***"; target the user unless `target` says
   * otherwise. In the change's transaction when the provider gives one (the
   * built-in provider), else on its own once the change succeeded
   * (AuditService.recordDone: the managed provider's changes are the pool's).
   */
  private recorder(origin: RequestOrigin, action: string, changes: AuditEntry['changes'], options: { target?: { type: string; id: string }; byOperator?: boolean } = {}): RecordChange {
    return (userId, tx) => {
      const actor = { accountId: userId, userId: options.byOperator ? null : userId, keyId: null, ip: origin.ip, requestId: origin.requestId };
      const entry = { action, targetType: options.target?.type ?? 'user', targetId: options.target?.id ?? userId, changes };
      return tx ? this.audit.record(tx, actor, entry) : this.audit.recordDone(actor, entry);
    };
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
