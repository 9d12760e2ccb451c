import {
  AssociateSoftwareTokenCommand,
  ChangePasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  DeleteUserCommand,
  ForgetDeviceCommand,
  ForgotPasswordCommand,
  GetUserCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  ListDevicesCommand,
  ResendConfirmationCodeCommand,
  RespondToAuthChallengeCommand,
  RevokeTokenCommand,
  SetUserMFAPreferenceCommand,
  SignUpCommand,
  UpdateUserAttributesCommand,
  VerifySoftwareTokenCommand,
  type AuthenticationResultType,
  type ChallengeNameType,
  type InitiateAuthCommandOutput,
} from '@aws-sdk/client-cognito-identity-provider';
import type {
  RememberedDeviceView,
  RespondToChallengeRequest,
  SecondFactorProof,
  TotpSetupResponse,
  TwoFactorStatus,
} from '@cronbeam/shared/auth/mfa-schemas';
import jwt from 'jsonwebtoken';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';
import type { AppConfig } from '../../../config/app-config';
import type { AuthenticatedUser } from '../authenticated-user';
import type { IdentityProvider, NewAccount, RecordChange, SignInResult, SocialIdentity, TokenSet, TokenVerificationSettings } from '../identity-provider';
import { totpUri } from '../local/totp';
import type { UsersService } from '../users.service';
import { remoteJwks } from '../verification-key-set';
import { toApiError, type CognitoOperation } from './cognito-errors';
import { cognitoIssuer, cognitoSettings, type CognitoSettings } from './cognito-settings';

/** Claims of a pool ID token this provider reads to keep the users row in step. */
interface PoolIdTokenClaims {
  sub: string;
  email?: string;
  name?: string;
}

/**
 * The identity operations on an AWS Cognito user pool (USER_PASSWORD_AUTH
 * app client, email as the user name). The pool owns passwords, codes and
 * tokens; this server keeps a `users` row per pool user, with the pool's
 * `sub` as its id, because jobs, plans and billing hang off it. A change is
 * the pool's, outside this database: its audit entry is written once the
 * pool made it (a change of the users row too shares that row's transaction).
 */
export class CognitoIdentityProvider implements IdentityProvider {
  readonly name = 'cognito';
  private readonly settings: CognitoSettings;
  private readonly client: CognitoIdentityProviderClient;

  constructor(
    private readonly config: AppConfig,
    private readonly users: UsersService,
  ) {
    this.settings = cognitoSettings(config);
    this.client = new CognitoIdentityProviderClient({ region: this.settings.region, endpoint: this.settings.endpoint });
  }

  verificationSettings(): TokenVerificationSettings {
    const issuer = cognitoIssuer(this.config);
    return { issuer, clientId: this.settings.clientId, fetchJwks: remoteJwks(`${issuer}/.well-known/jwks.json`) };
  }

  async signUp(account: NewAccount, record: RecordChange): Promise<{ userId: string }> {
    const out = await this.call('signUp', () =>
      this.client.send(
        new SignUpCommand({
          ClientId: this.settings.clientId,
          Username: account.email,
          Password: account.password,
          UserAttributes: [
            { Name: 'email', Value: account.email },
            { Name: 'name', Value: account.name },
          ],
        }),
      ),
    );
    const userId = out.UserSub!;
    const created = await this.users.create({ id: userId, email: account.email, name: account.name, passwordHash: null, emailVerified: false }, (tx, id) => record(id, tx));
    if (!created) throw ApiError.conflict(AUTH_MESSAGES.emailAlreadyRegistered);
    return { userId };
  }

  async confirmSignUp(email: string, code: string, record: RecordChange): Promise<void> {
    await this.call('confirm', () =>
      this.client.send(new ConfirmSignUpCommand({ ClientId: this.settings.clientId, Username: email, ConfirmationCode: code })),
    );
    const user = await this.users.findByEmail(email);
    if (user) await this.users.update(user.id, { emailVerified: true }, (tx) => record(user.id, tx));
  }

  async resendCode(email: string): Promise<void> {
    await this.call('confirm', () => this.client.send(new ResendConfirmationCodeCommand({ ClientId: this.settings.clientId, Username: email })));
  }

  /** Remembered devices need the pool's device SRP, which this API does not speak: the key is ignored and the pool decides. */
  async login(email: string, password: string): Promise<SignInResult> {
    const out = await this.call('login', () =>
      this.client.send(
        new InitiateAuthCommand({
          ClientId: this.settings.clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      ),
    );
    return this.signInStep(email, out);
  }

  /**
   * A sign-in to the pool with the account's own email, answering its
   * authenticator challenge with the given code. A wrong password or code
   * answers 400, not 401: the session is fine, a field of the form is wrong.
   */
  async reauthenticate(user: AuthenticatedUser, _accessToken: string, password: string, proof: SecondFactorProof): Promise<TokenSet> {
    const asFormError = (error: unknown) => (error instanceof ApiError && error.getStatus() === 401 ? ApiError.badRequest(error.detail) : error);
    let step = await this.login(user.email, password).catch((error: unknown) => Promise.reject(asFormError(error)));
    if (step.kind === 'challenge' && step.challenge === 'SOFTWARE_TOKEN_MFA') {
      if (proof.recovery_code) throw ApiError.invalidField(['body', 'recovery_code'], AUTH_MESSAGES.recoveryCodesUnavailable);
      if (!proof.code) throw ApiError.invalidField(['body', 'code'], AUTH_MESSAGES.secondFactorRequired);
      // A second-factor code changes nothing: nothing to record.
      const nothing = () => Promise.resolve();
      step = await this.respondToChallenge({ challenge: 'SOFTWARE_TOKEN_MFA', session: step.session, email: user.email, code: proof.code }, nothing).catch(
        (error: unknown) => Promise.reject(asFormError(error)),
      );
    }
    if (step.kind !== 'tokens') throw ApiError.badRequest(AUTH_MESSAGES.authenticationFailed);
    return step.tokens;
  }

  async respondToChallenge(answer: RespondToChallengeRequest, record: RecordChange): Promise<SignInResult> {
    const username = answer.email.trim();
    if (answer.recovery_code) throw ApiError.invalidField(['body', 'recovery_code'], AUTH_MESSAGES.recoveryCodesUnavailable);
    let result: SignInResult;
    if (answer.challenge === 'MFA_SETUP') {
      // The code proves the app holds the secret AssociateSoftwareToken gave out; then the pool finishes the sign-in.
      const verified = await this.call('challenge', () =>
        this.client.send(new VerifySoftwareTokenCommand({ Session: answer.session, UserCode: answer.code, FriendlyDeviceName: answer.device_name })),
      );
      result = await this.respond(username, 'MFA_SETUP', verified.Session ?? answer.session, { USERNAME: username });
    } else {
      const responses: Record<string, string> =
        answer.challenge === 'SOFTWARE_TOKEN_MFA'
          ? { USERNAME: username, SOFTWARE_TOKEN_MFA_CODE: answer.code! }
          : { USERNAME: username, NEW_PASSWORD: answer.new_password! };
      result = await this.respond(username, answer.challenge, answer.session, responses);
    }
    // An answer that set something up at the pool, once the pool signed the user in (their row exists from then on).
    if (answer.challenge !== 'SOFTWARE_TOKEN_MFA' && result.kind === 'tokens') {
      const user = await this.users.findByEmail(username);
      if (user) await record(user.id);
    }
    return result;
  }

  private async respond(username: string, challenge: ChallengeNameType, session: string, responses: Record<string, string>): Promise<SignInResult> {
    const out = await this.call('challenge', () =>
      this.client.send(
        new RespondToAuthChallengeCommand({ ClientId: this.settings.clientId, ChallengeName: challenge, Session: session, ChallengeResponses: responses }),
      ),
    );
    return this.signInStep(username, out);
  }

  /**
   * Tokens, or the next challenge in the API's terms. A choice of MFA type is
   * answered with the authenticator at once (the only kind this app offers);
   * MFA set-up starts by associating a software token, whose secret the
   * client shows. SMS codes and custom challenges are the managed UI's.
   */
  private async signInStep(username: string, out: Pick<InitiateAuthCommandOutput, 'AuthenticationResult' | 'ChallengeName' | 'Session'>): Promise<SignInResult> {
    if (out.AuthenticationResult) {
      const tokens = this.tokenSet(out.AuthenticationResult);
      await this.ensureUserRow(tokens.idToken);
      return { kind: 'tokens', tokens };
    }
    const session = out.Session ?? '';
    switch (out.ChallengeName) {
      case 'SOFTWARE_TOKEN_MFA':
      case 'NEW_PASSWORD_REQUIRED':
        return { kind: 'challenge', challenge: out.ChallengeName, session };
      case 'SELECT_MFA_TYPE':
        return this.respond(username, 'SELECT_MFA_TYPE', session, { USERNAME: username, ANSWER: 'SOFTWARE_TOKEN_MFA' });
      case 'MFA_SETUP': {
        const associated = await this.call('challenge', () => this.client.send(new AssociateSoftwareTokenCommand({ Session: session })));
        const secret = associated.SecretCode!;
        return { kind: 'challenge', challenge: 'MFA_SETUP', session: associated.Session ?? session, secret, otpauthUri: totpUri(secret, username) };
      }
      default:
        throw ApiError.unauthorized(AUTH_MESSAGES.authenticationFailed);
    }
  }

  async twoFactorStatus(_user: AuthenticatedUser, accessToken: string): Promise<TwoFactorStatus> {
    const out = await this.call('session', () => this.client.send(new GetUserCommand({ AccessToken: accessToken })));
    const enabled = (out.UserMFASettingList ?? []).includes('SOFTWARE_TOKEN_MFA');
    return { totp_enabled: enabled, enabled_at: null, recovery_codes_left: 0 };
  }

  async setUpTotp(user: AuthenticatedUser, accessToken: string): Promise<TotpSetupResponse> {
    if ((await this.twoFactorStatus(user, accessToken)).totp_enabled) throw ApiError.conflict(AUTH_MESSAGES.twoFactorAlreadyEnabled);
    const out = await this.call('session', () => this.client.send(new AssociateSoftwareTokenCommand({ AccessToken: accessToken })));
    return { secret: out.SecretCode!, otpauth_uri: totpUri(out.SecretCode!, user.email) };
  }

  /** The pool has no recovery codes: the list is empty (the web app says so). */
  async enableTotp(user: AuthenticatedUser, accessToken: string, code: string, record: RecordChange): Promise<string[]> {
    await this.call('challenge', () => this.client.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: code })));
    await this.setSoftwareTokenMfa(accessToken, true);
    await record(user.id);
    return [];
  }

  /** The pool cannot check a code outside a sign-in except by verifying the token again, which is what proves the caller holds it. */
  async disableTotp(user: AuthenticatedUser, accessToken: string, proof: SecondFactorProof, record: RecordChange): Promise<void> {
    if (!proof.code) throw ApiError.invalidField(['body', 'recovery_code'], AUTH_MESSAGES.recoveryCodesUnavailable);
    await this.call('challenge', () => this.client.send(new VerifySoftwareTokenCommand({ AccessToken: accessToken, UserCode: proof.code })));
    await this.setSoftwareTokenMfa(accessToken, false);
    await record(user.id);
  }

  regenerateRecoveryCodes(): Promise<string[]> {
    return Promise.reject(ApiError.badRequest(AUTH_MESSAGES.recoveryCodesUnavailable));
  }

  async listDevices(_user: AuthenticatedUser, accessToken: string): Promise<RememberedDeviceView[]> {
    const out = await this.call('session', () => this.client.send(new ListDevicesCommand({ AccessToken: accessToken, Limit: 60 })));
    return (out.Devices ?? []).map((d) => ({
      device_id: d.DeviceKey ?? '',
      name: d.DeviceAttributes?.find((a) => a.Name === 'device_name')?.Value ?? 'Unnamed device',
      created_at: (d.DeviceCreateDate ?? new Date(0)).toISOString(),
      last_used_at: d.DeviceLastAuthenticatedDate?.toISOString() ?? null,
      expires_at: new Date((d.DeviceLastAuthenticatedDate ?? d.DeviceCreateDate ?? new Date()).getTime() + this.config.env.AUTH_REMEMBERED_DEVICE_DAYS * 86_400_000).toISOString(),
    }));
  }

  async forgetDevice(user: AuthenticatedUser, accessToken: string, deviceId: string, record: RecordChange): Promise<void> {
    await this.call('device', () => this.client.send(new ForgetDeviceCommand({ AccessToken: accessToken, DeviceKey: deviceId })));
    await record(user.id);
  }

  async updateName(user: AuthenticatedUser, accessToken: string, name: string, record: RecordChange): Promise<void> {
    await this.call('session', () =>
      this.client.send(new UpdateUserAttributesCommand({ AccessToken: accessToken, UserAttributes: [{ Name: 'name', Value: name }] })),
    );
    await this.users.update(user.id, { name }, (tx) => record(user.id, tx));
  }

  /** Pools force a new password through AdminResetUserPassword (AWS console or CLI), with the operator's AWS credentials, not this server's. */
  requireNewPassword(): Promise<void> {
    return Promise.reject(ApiError.conflict(AUTH_MESSAGES.operatorCommandUnavailable));
  }

  private async setSoftwareTokenMfa(accessToken: string, enabled: boolean): Promise<void> {
    await this.call('session', () =>
      this.client.send(
        new SetUserMFAPreferenceCommand({ AccessToken: accessToken, SoftwareTokenMfaSettings: { Enabled: enabled, PreferredMfa: enabled } }),
      ),
    );
  }

  async refresh(refreshToken: string): Promise<TokenSet> {
    const out = await this.call('refresh', () =>
      this.client.send(
        new InitiateAuthCommand({
          ClientId: this.settings.clientId,
          AuthFlow: 'REFRESH_TOKEN_AUTH',
          AuthParameters: { REFRESH_TOKEN: refreshToken },
        }),
      ),
    );
    if (!out.AuthenticationResult) throw ApiError.unauthorized(AUTH_MESSAGES.invalidRefreshToken);
    // The pool rotates refresh tokens only when rotation is enabled on the client; otherwise the old one stays valid.
    return this.tokenSet(out.AuthenticationResult, refreshToken);
  }

  async revokeRefreshToken(refreshToken: string): Promise<void> {
    await this.call('revoke', () => this.client.send(new RevokeTokenCommand({ ClientId: this.settings.clientId, Token: refreshToken })));
  }

  async forgotPassword(email: string): Promise<void> {
    await this.call('forgot', () => this.client.send(new ForgotPasswordCommand({ ClientId: this.settings.clientId, Username: email })));
  }

  async resetPassword(email: string, code: string, newPassword: string, record: RecordChange): Promise<void> {
    await this.call('reset', () =>
      this.client.send(
        new ConfirmForgotPasswordCommand({ ClientId: this.settings.clientId, Username: email, ConfirmationCode: code, Password: newPassword }),
      ),
    );
    const user = await this.users.findByEmail(email);
    if (user) await record(user.id);
  }

  async changePassword(user: AuthenticatedUser, accessToken: string, oldPassword: string, newPassword: string, record: RecordChange): Promise<void> {
    await this.call('changePassword', () =>
      this.client.send(new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: oldPassword, ProposedPassword: newPassword })),
    );
    await record(user.id);
  }

  async globalSignOut(user: AuthenticatedUser, accessToken: string, record: RecordChange): Promise<void> {
    await this.call('session', () => this.client.send(new GlobalSignOutCommand({ AccessToken: accessToken })));
    // Pool access tokens stay cryptographically valid until they expire; the bearer guard checks this instant.
    await this.users.update(user.id, { sessionsRevokedAt: new Date() }, (tx) => record(user.id, tx));
  }

  async deleteUser(_user: AuthenticatedUser, accessToken: string): Promise<void> {
    await this.call('session', () => this.client.send(new DeleteUserCommand({ AccessToken: accessToken })));
  }

  /** The hosted UI already issued the pool's tokens (verified by openid-client); they are the session. */
  async socialSession(identity: SocialIdentity, recordSignUp: RecordChange): Promise<SignInResult> {
    const { accessToken, idToken, refreshToken, expiresIn } = identity.providerTokens;
    if (!accessToken || !idToken || !refreshToken) throw ApiError.unauthorized(AUTH_MESSAGES.codeExchangeFailed);
    const existing = await this.users.findByEmail(identity.email);
    if (existing && existing.id !== identity.subject) {
      throw ApiError.conflict(identity.intent === 'signup' ? AUTH_MESSAGES.emailAlreadyRegistered : AUTH_MESSAGES.socialLoginUsePassword);
    }
    if (!existing) {
      await this.users.create({ id: identity.subject, email: identity.email, name: identity.name, passwordHash: null, emailVerified: true }, (tx, userId) => recordSignUp(userId, tx));
    }
    return { kind: 'tokens', tokens: { accessToken, idToken, refreshToken, expiresIn: expiresIn ?? 3600 } };
  }

  private async call<T>(operation: CognitoOperation, send: () => Promise<T>): Promise<T> {
    try {
      return await send();
    } catch (error) {
      throw toApiError(error, operation);
    }
  }

  private tokenSet(result: AuthenticationResultType, previousRefreshToken?: string): TokenSet {
    const refreshToken = result.RefreshToken ?? previousRefreshToken;
    if (!result.AccessToken || !result.IdToken || !refreshToken) throw new ApiError(502, AUTH_MESSAGES.authenticationFailed);
    return { accessToken: result.AccessToken, idToken: result.IdToken, refreshToken, expiresIn: result.ExpiresIn ?? 3600 };
  }

  /**
   * Pool users made outside this API (console, migration) get their row on
   * first sign-in. The token came straight from the pool over TLS, so
   * decoding without verifying is enough here; the guard verifies every use.
   */
  private async ensureUserRow(idToken: string): Promise<void> {
    const claims = jwt.decode(idToken) as PoolIdTokenClaims | null;
    if (!claims?.sub || !claims.email || (await this.users.findById(claims.sub))) return;
    await this.users.create({ id: claims.sub, email: claims.email, name: claims.name ?? claims.email, passwordHash: null, emailVerified: true });
  }
}
