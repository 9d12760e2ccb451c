import type { AuthIntent, SocialProvider } from '@cronbeam/shared/auth/auth-schemas';
import type {
  ChallengeName,
  RememberedDeviceView,
  RespondToChallengeRequest,
  SecondFactorProof,
  TotpSetupResponse,
  TwoFactorStatus,
} from '@cronbeam/shared/auth/mfa-schemas';
import type { Queryable } from '../../common/database/transaction';
import type { AuthenticatedUser } from './authenticated-user';
import type { JwksSource } from './verification-key-set';

/** Tokens of a session, whichever provider issued them. */
export interface TokenSet {
  accessToken: string;
  idToken: string;
  refreshToken: string;
  /** Seconds until the access and ID tokens expire. */
  expiresIn: number;
}

/**
 * What a sign-in step leads to: the session, another challenge, or (for a
 * device key the server does not know) the signal that the client must drop
 * its device data and sign in again without it.
 */
export type SignInResult =
  | { kind: 'tokens'; tokens: TokenSet; /** Set when the device was remembered in this step. */ deviceKey?: string }
  | {
      kind: 'challenge';
      challenge: ChallengeName;
      session: string;
      secret?: string;
      otpauthUri?: string;
      /** The account's email, for a client that did not type it (a social sign-in). */
      username?: string;
    }
  | { kind: 'device_unknown' };

export interface NewAccount {
  name: string;
  email: string;
  password: string;
}

/** A person the social identity provider vouched for (claims of its verified ID token). */
export interface SocialIdentity {
  provider: SocialProvider;
  subject: string;
  email: string;
  name: string;
  intent: AuthIntent;
  /** The tokens the OpenID provider issued (Cognito's hosted UI issues the session's own tokens). */
  providerTokens: { accessToken?: string; idToken?: string; refreshToken?: string; expiresIn?: number };
}

/**
 * Writes the audit entry of the change an operation makes (AuthService
 * builds it), for the user changed. With `tx`, the transaction of the
 * change's own statements: the change and its entry then commit together or
 * not at all. Without, on its own, once the change succeeded: what a provider
 * does for a change it made outside this database (Cognito's pool).
 */
export type RecordChange = (userId: string, tx?: Queryable) => Promise<void>;

/** How bearer tokens of the provider are verified (see JwtStrategy). */
export interface TokenVerificationSettings {
  issuer: string;
  clientId: string;
  /** Reads the provider's JWKS (the local provider reads its own table; Cognito's is fetched from the pool). */
  fetchJwks: JwksSource;
  /** Registers a listener called when the provider starts signing with a key it just made, so verifiers learn it at once. */
  onKeysChanged?: (listener: () => void) => void;
}

/**
 * The identity operations the API needs, implemented by the built-in provider
 * (`local`) and by AWS Cognito (`cognito`). Implementations throw ApiError
 * with the texts of AUTH_MESSAGES, keep the `users` row of every account in step with
 * the provider, and never see throttling (AuthService does that for both).
 * An operation that changes an account takes `record` and calls it once the
 * change is certain: in the change's transaction where the change is this
 * database's, on its own after a change the provider made elsewhere; a
 * refused change throws before it (see RecordChange).
 */
export interface IdentityProvider {
  readonly name: 'local' | 'cognito';
  verificationSettings(): TokenVerificationSettings;
  /** Creates an unconfirmed account and sends it a verification code. */
  signUp(account: NewAccount, record: RecordChange): Promise<{ userId: string }>;
  confirmSignUp(email: string, code: string, record: RecordChange): Promise<void>;
  resendCode(email: string): Promise<void>;
  /** The password step; `deviceKey` is a remembered device's key, which skips the second factor. */
  login(email: string, password: string, deviceKey?: string): Promise<SignInResult>;
  /**
   * The answer to a challenge the password step (or a previous answer)
   * returned. `record` is called for an answer that changes a setting of the
   * account (a new password chosen, an authenticator set up), not for a
   * second-factor code.
   */
  respondToChallenge(answer: RespondToChallengeRequest, record: RecordChange): Promise<SignInResult>;
  refresh(refreshToken: string): Promise<TokenSet>;
  /**
   * A new session for the signed-in user after checking their password (and
   * second factor when on) again; its tokens carry a fresh `auth_time`.
   * Wrong answers are 400 (the current session stays valid).
   */
  reauthenticate(user: AuthenticatedUser, accessToken: string, password: string, proof: SecondFactorProof): Promise<TokenSet>;
  /** Revokes the refresh token (and its family); unknown tokens are ignored. */
  revokeRefreshToken(refreshToken: string): Promise<void>;
  forgotPassword(email: string): Promise<void>;
  resetPassword(email: string, code: string, newPassword: string, record: RecordChange): Promise<void>;
  changePassword(user: AuthenticatedUser, accessToken: string, oldPassword: string, newPassword: string, record: RecordChange): Promise<void>;
  /** Ends every session of the user. */
  globalSignOut(user: AuthenticatedUser, accessToken: string, record: RecordChange): Promise<void>;
  /**
   * A session (or the second-factor challenge) for someone who signed in
   * through a social provider, creating the account on first sign-in:
   * `recordSignUp` is called for that creation only.
   */
  socialSession(identity: SocialIdentity, recordSignUp: RecordChange): Promise<SignInResult>;
  twoFactorStatus(user: AuthenticatedUser, accessToken: string): Promise<TwoFactorStatus>;
  /** A new authenticator secret (not in force until enableTotp confirms a code from it). */
  setUpTotp(user: AuthenticatedUser, accessToken: string): Promise<TotpSetupResponse>;
  /** Turns the authenticator on; answers the new recovery codes (none where the provider has no such thing). */
  enableTotp(user: AuthenticatedUser, accessToken: string, code: string, record: RecordChange): Promise<string[]>;
  disableTotp(user: AuthenticatedUser, accessToken: string, proof: SecondFactorProof, record: RecordChange): Promise<void>;
  regenerateRecoveryCodes(user: AuthenticatedUser, accessToken: string, proof: SecondFactorProof, record: RecordChange): Promise<string[]>;
  listDevices(user: AuthenticatedUser, accessToken: string): Promise<RememberedDeviceView[]>;
  forgetDevice(user: AuthenticatedUser, accessToken: string, deviceId: string, record: RecordChange): Promise<void>;
  /** Changes the display name (the ID token's name claim from the next refresh on). */
  updateName(user: AuthenticatedUser, accessToken: string, name: string, record: RecordChange): Promise<void>;
  /** Operators: the user must choose a new password at the next sign-in; their sessions end now. */
  requireNewPassword(userId: string, record: RecordChange): Promise<void>;
  /** Removes the account at the provider; the caller deletes the user's data. */
  deleteUser(user: AuthenticatedUser, accessToken: string): Promise<void>;
}

export const IDENTITY_PROVIDER = Symbol('IdentityProvider');
