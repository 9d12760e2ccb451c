import {
  ChangePasswordCommand,
  CognitoIdentityProviderClient,
  ConfirmForgotPasswordCommand,
  ConfirmSignUpCommand,
  DeleteUserCommand,
  ForgotPasswordCommand,
  GlobalSignOutCommand,
  InitiateAuthCommand,
  ResendConfirmationCodeCommand,
  RevokeTokenCommand,
  SignUpCommand,
  type AuthenticationResultType,
} from '@aws-sdk/client-cognito-identity-provider';
import jwt from 'jsonwebtoken';
import { AUTH_MESSAGES } from '@shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';
import type { AppConfig } from '../../../config/app-config';
import type { AuthenticatedUser } from '../authenticated-user';
import type { IdentityProvider, NewAccount, SocialIdentity, TokenSet, TokenVerificationSettings } from '../identity-provider';
import type { UsersService } from '../users.service';
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
 * `sub` as its id, because jobs, plans and billing hang off it.
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
    return { issuer, clientId: this.settings.clientId, jwksUri: `${issuer}/.well-known/jwks.json` };
  }

  async signUp(account: NewAccount): Promise<{ userId: string }> {
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
    const created = await this.users.create({ id: userId, email: account.email, name: account.name, passwordHash: null, emailVerified: false });
    if (!created) throw ApiError.conflict(AUTH_MESSAGES.emailAlreadyRegistered);
    return { userId };
  }

  async confirmSignUp(email: string, code: string): Promise<void> {
    await this.call('confirm', () =>
      this.client.send(new ConfirmSignUpCommand({ ClientId: this.settings.clientId, Username: email, ConfirmationCode: code })),
    );
    const user = await this.users.findByEmail(email);
    if (user) await this.users.update(user.id, { emailVerified: true });
  }

  async resendCode(email: string): Promise<void> {
    await this.call('confirm', () => this.client.send(new ResendConfirmationCodeCommand({ ClientId: this.settings.clientId, Username: email })));
  }

  async login(email: string, password: string): Promise<TokenSet> {
    const out = await this.call('login', () =>
      this.client.send(
        new InitiateAuthCommand({
          ClientId: this.settings.clientId,
          AuthFlow: 'USER_PASSWORD_AUTH',
          AuthParameters: { USERNAME: email, PASSWORD: password },
        }),
      ),
    );
    if (!out.AuthenticationResult) {
      // Challenges (MFA, new password) are completed in the managed UI, not through this API.
      throw ApiError.unauthorized(out.ChallengeName === 'NEW_PASSWORD_REQUIRED' ? AUTH_MESSAGES.newPasswordRequired : AUTH_MESSAGES.authenticationFailed);
    }
    const tokens = this.tokenSet(out.AuthenticationResult);
    await this.ensureUserRow(tokens.idToken);
    return tokens;
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

  async resetPassword(email: string, code: string, newPassword: string): Promise<void> {
    await this.call('reset', () =>
      this.client.send(
        new ConfirmForgotPasswordCommand({ ClientId: this.settings.clientId, Username: email, ConfirmationCode: code, Password: newPassword }),
      ),
    );
  }

  async changePassword(_user: AuthenticatedUser, accessToken: string, oldPassword: string, newPassword: string): Promise<void> {
    await this.call('changePassword', () =>
      this.client.send(new ChangePasswordCommand({ AccessToken: accessToken, PreviousPassword: oldPassword, ProposedPassword: newPassword })),
    );
  }

  async globalSignOut(user: AuthenticatedUser, accessToken: string): Promise<void> {
    await this.call('session', () => this.client.send(new GlobalSignOutCommand({ AccessToken: accessToken })));
    // Pool access tokens stay cryptographically valid until they expire; the bearer guard checks this instant.
    await this.users.update(user.id, { sessionsRevokedAt: new Date() });
  }

  async deleteUser(_user: AuthenticatedUser, accessToken: string): Promise<void> {
    await this.call('session', () => this.client.send(new DeleteUserCommand({ AccessToken: accessToken })));
  }

  /** The hosted UI already issued the pool's tokens (verified by openid-client); they are the session. */
  async socialSession(identity: SocialIdentity): Promise<TokenSet> {
    const { accessToken, idToken, refreshToken, expiresIn } = identity.providerTokens;
    if (!accessToken || !idToken || !refreshToken) throw ApiError.unauthorized(AUTH_MESSAGES.codeExchangeFailed);
    const existing = await this.users.findByEmail(identity.email);
    if (existing && existing.id !== identity.subject) {
      throw ApiError.conflict(identity.intent === 'signup' ? AUTH_MESSAGES.emailAlreadyRegistered : AUTH_MESSAGES.socialLoginUsePassword);
    }
    if (!existing) {
      await this.users.create({ id: identity.subject, email: identity.email, name: identity.name, passwordHash: null, emailVerified: true });
    }
    return { accessToken, idToken, refreshToken, expiresIn: expiresIn ?? 3600 };
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
