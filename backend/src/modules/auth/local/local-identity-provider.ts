import { Injectable } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { Alongside } from '../../../common/database/transaction';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { MailService } from '../../mail/mail.service';
import type { AuthenticatedUser } from '../authenticated-user';
import type { RespondToChallengeRequest, SecondFactorProof } from '@cronbeam/shared/auth/mfa-schemas';
import type { IdentityProvider, NewAccount, RecordChange, SignInResult, SocialIdentity, TokenSet, TokenVerificationSettings } from '../identity-provider';
import { passwordResetCodeMail, verificationCodeMail } from '../identity-mails';
import type { UserEntity } from '../user.entity';
import type { UserWritableColumns } from '../users.repository';
import { UsersService } from '../users.service';
import { decoyPasswordHash, hashPassword, verifyPassword } from './password-hasher';
import { RefreshTokensService } from './refresh-tokens.service';
import { RememberedDevicesService } from './remembered-devices.service';
import { SignInChallengesService } from './sign-in-challenges.service';
import { SigningKeysService } from './signing-keys.service';
import { SocialAccountsService } from './social-accounts.service';
import { localIssuer, TokenIssuerService } from './token-issuer.service';
import { TwoFactorService } from './two-factor.service';
import { AccountSecurityRepository } from './account-security.repository';
import { VerificationCodesService } from './verification-codes.service';

/**
 * The built-in identity provider: accounts, codes and tokens in this
 * server's database. Every change is one transaction with its audit entry
 * (`record` given the transaction): both or neither. Checks of a secret (a
 * password, a mailed code, a second factor) come before it and count,
 * or are used up, whatever follows.
 */
@Injectable()
export class LocalIdentityProvider implements IdentityProvider {
  readonly name = 'local';

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
    private readonly mail: MailService,
    private readonly codes: VerificationCodesService,
    private readonly tokens: TokenIssuerService,
    private readonly refreshTokens: RefreshTokensService,
    private readonly keys: SigningKeysService,
    private readonly socialAccounts: SocialAccountsService,
    private readonly twoFactor: TwoFactorService,
    private readonly devices: RememberedDevicesService,
    private readonly challenges: SignInChallengesService,
    private readonly security: AccountSecurityRepository,
  ) {}

  verificationSettings(): TokenVerificationSettings {
    return {
      issuer: localIssuer(this.config),
      clientId: this.config.env.AUTH_CLIENT_ID,
      fetchJwks: async () => ({ keys: await this.keys.publicJwks() }),
      onKeysChanged: (listener) => this.keys.onKeyCreated(listener),
    };
  }

  async signUp(account: NewAccount, record: RecordChange): Promise<{ userId: string }> {
    const user = await this.users.create(
      {
        email: account.email,
        name: account.name,
        passwordHash: await hashPassword(account.password),
        emailVerified: false,
      },
      (tx, userId) => record(userId, tx),
    );
    if (!user) throw ApiError.conflict(AUTH_MESSAGES.emailAlreadyRegistered);
    await this.sendCode(user, 'verify_email');
    return { userId: user.id };
  }

  async confirmSignUp(email: string, code: string, record: RecordChange): Promise<void> {
    const user = await this.existingUser(email);
    if (user.emailVerified) throw ApiError.badRequest(AUTH_MESSAGES.alreadyConfirmed);
    await this.codes.consume(user.id, 'verify_email', code);
    await this.users.update(user.id, { emailVerified: true }, (tx) => record(user.id, tx));
  }

  async resendCode(email: string): Promise<void> {
    const user = await this.existingUser(email);
    if (user.emailVerified) throw ApiError.badRequest(AUTH_MESSAGES.alreadyConfirmed);
    await this.sendCode(user, 'verify_email');
  }

  async login(email: string, password: string, deviceKey?: string): Promise<SignInResult> {
    const user = await this.users.findByEmail(email);
    // The unknown-user path runs the same scrypt as the wrong-password path: equal timing.
    const matches = await verifyPassword(password, user?.passwordHash ?? (await decoyPasswordHash()));
    if (!user) throw ApiError.unauthorized(AUTH_MESSAGES.userDoesNotExist);
    if (!matches || !user.passwordHash) throw ApiError.unauthorized(AUTH_MESSAGES.incorrectCredentials);
    if (!user.emailVerified) throw ApiError.forbidden(AUTH_MESSAGES.userNotConfirmed);
    if (await this.twoFactor.isEnabled(user.id)) {
      if (!deviceKey) return this.challenge(user.id, 'SOFTWARE_TOKEN_MFA');
      if (!(await this.devices.recognise(user.id, deviceKey))) return { kind: 'device_unknown' };
    }
    return this.afterSecondFactor(user);
  }

  /**
   * The second factor comes before the new password: whoever holds only the
   * (possibly leaked) password an operator flagged must not get to set it.
   */
  async respondToChallenge(answer: RespondToChallengeRequest, record: RecordChange): Promise<SignInResult> {
    const userId = await this.challenges.userOf(answer.session, answer.challenge);
    const user = await this.users.findById(userId);
    if (!user || user.email.toLowerCase() !== answer.email.trim().toLowerCase()) {
      throw ApiError.unauthorized(AUTH_MESSAGES.challengeSessionExpired);
    }
    if (answer.challenge === 'SOFTWARE_TOKEN_MFA') {
      await this.twoFactor.verify(user.id, { code: answer.code, recovery_code: answer.recovery_code });
      await this.challenges.close(answer.session);
      const next = await this.afterSecondFactor(user);
      if (next.kind !== 'tokens' || !answer.remember_device) return next;
      return { ...next, deviceKey: await this.devices.remember(user.id, answer.device_name) };
    }
    // NEW_PASSWORD_REQUIRED (the schema admits no other local challenge name past userOf).
    await this.challenges.close(answer.session);
    await this.users.update(user.id, { passwordHash: await hashPassword(answer.new_password!) }, async (tx) => {
      await this.security.setNewPasswordRequired(user.id, false, tx);
      await record(user.id, tx);
    });
    return { kind: 'tokens', tokens: await this.startSession(user) };
  }

  private async afterSecondFactor(user: UserEntity): Promise<SignInResult> {
    if (await this.twoFactor.newPasswordRequired(user.id)) return this.challenge(user.id, 'NEW_PASSWORD_REQUIRED');
    return { kind: 'tokens', tokens: await this.startSession(user) };
  }

  private async challenge(userId: string, challenge: 'SOFTWARE_TOKEN_MFA' | 'NEW_PASSWORD_REQUIRED'): Promise<SignInResult & { kind: 'challenge' }> {
    return { kind: 'challenge', challenge, session: await this.challenges.open(userId, challenge) };
  }

  twoFactorStatus(caller: AuthenticatedUser) {
    return this.twoFactor.status(caller.id);
  }

  setUpTotp(caller: AuthenticatedUser) {
    return this.twoFactor.setUp(caller.id, caller.email);
  }

  enableTotp(caller: AuthenticatedUser, _accessToken: string, code: string, record: RecordChange) {
    return this.twoFactor.enable(caller.id, code, (tx) => record(caller.id, tx));
  }

  disableTotp(caller: AuthenticatedUser, _accessToken: string, proof: SecondFactorProof, record: RecordChange) {
    return this.twoFactor.disable(caller.id, proof, (tx) => record(caller.id, tx));
  }

  regenerateRecoveryCodes(caller: AuthenticatedUser, _accessToken: string, proof: SecondFactorProof, record: RecordChange) {
    return this.twoFactor.regenerateRecoveryCodes(caller.id, proof, (tx) => record(caller.id, tx));
  }

  listDevices(caller: AuthenticatedUser) {
    return this.devices.list(caller.id);
  }

  forgetDevice(caller: AuthenticatedUser, _accessToken: string, deviceId: string, record: RecordChange) {
    return this.devices.forget(caller.id, deviceId, (tx) => record(caller.id, tx));
  }

  async updateName(caller: AuthenticatedUser, _accessToken: string, name: string, record: RecordChange): Promise<void> {
    await this.users.update(caller.id, { name }, (tx) => record(caller.id, tx));
  }

  async requireNewPassword(userId: string, record: RecordChange): Promise<void> {
    await this.endSessions(userId, {}, async (tx) => {
      await this.security.setNewPasswordRequired(userId, true, tx);
      await record(userId, tx);
    });
  }

  /** The social provider's tokens only proved who this is; the session gets this server's own tokens. */
  /** The social provider stands in for the password only: an account with two-factor on still answers the code. */
  async socialSession(identity: SocialIdentity, recordSignUp: RecordChange): Promise<SignInResult> {
    const user = await this.socialAccounts.findOrCreate(identity, recordSignUp);
    if (await this.twoFactor.isEnabled(user.id)) return { ...(await this.challenge(user.id, 'SOFTWARE_TOKEN_MFA')), username: user.email };
    return this.afterSecondFactor(user);
  }

  /** A new session: the user proved a credential just now. */
  private async startSession(user: UserEntity): Promise<TokenSet> {
    const authenticatedAt = new Date();
    const { idToken, accessToken } = await this.tokens.issue(user, authenticatedAt);
    const refreshToken = await this.refreshTokens.issue(user.id, authenticatedAt);
    return { idToken, accessToken, refreshToken, expiresIn: this.tokens.ttlSeconds };
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    const rotated = await this.refreshTokens.rotate(refreshToken);
    const user = await this.users.findById(rotated.userId);
    if (!user) throw ApiError.unauthorized(AUTH_MESSAGES.invalidRefreshToken);
    const { idToken, accessToken } = await this.tokens.issue(user, rotated.authenticatedAt);
    return { idToken, accessToken, refreshToken: rotated.refreshToken, expiresIn: this.tokens.ttlSeconds };
  }

  /** The password again, and the second factor when it is on; social-only accounts have no password and sign in with their provider again. */
  async reauthenticate(caller: AuthenticatedUser, _accessToken: string, password: string, proof: SecondFactorProof): Promise<TokenSet> {
    const user = await this.users.findById(caller.id);
    if (!user) throw ApiError.unauthorized(AUTH_MESSAGES.notAuthenticated);
    const matches = await verifyPassword(password, user.passwordHash ?? (await decoyPasswordHash()));
    if (!user.passwordHash) throw ApiError.badRequest(AUTH_MESSAGES.reauthenticateWithSocialProvider);
    // 400, not 401: the session is fine, a field of the form is wrong (a 401 makes clients sign the user out).
    if (!matches) throw ApiError.badRequest(AUTH_MESSAGES.incorrectCredentials);
    if (await this.twoFactor.isEnabled(user.id)) {
      if (!proof.code && !proof.recovery_code) throw ApiError.invalidField(['body', 'code'], AUTH_MESSAGES.secondFactorRequired);
      await this.twoFactor.verify(user.id, proof);
    }
    return this.startSession(user);
  }

  async revokeRefreshToken(refreshToken: string): Promise<void> {
    await this.refreshTokens.revoke(refreshToken);
  }

  async forgotPassword(email: string): Promise<void> {
    await this.sendCode(await this.existingUser(email), 'reset_password');
  }

  async resetPassword(email: string, code: string, newPassword: string, record: RecordChange): Promise<void> {
    const user = await this.existingUser(email);
    await this.codes.consume(user.id, 'reset_password', code);
    // Receiving the code proves the address, so a reset also confirms an unverified account.
    await this.endSessions(user.id, { passwordHash: await hashPassword(newPassword), emailVerified: true }, (tx) => record(user.id, tx));
  }

  async changePassword(caller: AuthenticatedUser, _accessToken: string, oldPassword: string, newPassword: string, record: RecordChange): Promise<void> {
    const user = await this.users.findById(caller.id);
    if (!user) throw ApiError.unauthorized(AUTH_MESSAGES.notAuthenticated);
    const matches = await verifyPassword(oldPassword, user.passwordHash ?? (await decoyPasswordHash()));
    // 400, not 401: the caller's session is fine, a field of the form is wrong (a 401 makes clients sign the user out).
    if (!matches || !user.passwordHash) throw ApiError.badRequest(AUTH_MESSAGES.incorrectCredentials);
    // Like the managed service, other sessions stay signed in; global sign-out ends them.
    await this.users.update(user.id, { passwordHash: await hashPassword(newPassword) }, (tx) => record(user.id, tx));
  }

  async globalSignOut(caller: AuthenticatedUser, _accessToken: string, record: RecordChange): Promise<void> {
    await this.endSessions(caller.id, {}, (tx) => record(caller.id, tx));
  }

  /** Nothing to do at the provider: the account is the users row, which the caller deletes. */
  async deleteUser(): Promise<void> {}

  /** Ends every session of the user, in one transaction with the other `fields` of their row and `alongside`. */
  private async endSessions(userId: string, fields: UserWritableColumns, alongside: Alongside): Promise<void> {
    await this.users.update(userId, { ...fields, sessionsRevokedAt: new Date() }, async (tx) => {
      await this.refreshTokens.revokeAllOf(userId, tx);
      await alongside(tx);
    });
  }

  private async existingUser(email: string): Promise<UserEntity> {
    const user = await this.users.findByEmail(email);
    if (!user) throw ApiError.notFound(AUTH_MESSAGES.userDoesNotExist);
    return user;
  }

  private async sendCode(user: UserEntity, purpose: 'verify_email' | 'reset_password'): Promise<void> {
    const code = await this.codes.issue(user.id, purpose);
    const mail = purpose === 'verify_email' ? verificationCodeMail : passwordResetCodeMail;
    await this.mail.send(mail({ to: user.email, name: user.name, code, validForSeconds: this.config.env.AUTH_CODE_TTL_SECONDS }));
  }
}
