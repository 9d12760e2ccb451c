import type { AuthIntent, SocialProvider } from '@shared/auth/auth-schemas';
import type { AuthenticatedUser } from './authenticated-user';

/** Tokens of a session, whichever provider issued them. */
export interface TokenSet {
  accessToken: string;
  idToken: string;
  refreshToken: string;
  /** Seconds until the access and ID tokens expire. */
  expiresIn: number;
}

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

/** How bearer tokens of the provider are verified (see JwtStrategy). */
export interface TokenVerificationSettings {
  issuer: string;
  clientId: string;
  jwksUri: string;
  /** Reads the JWKS without an HTTP round trip (the local provider reads its own table). */
  fetchJwks?: () => Promise<{ keys: object[] }>;
}

/**
 * The identity operations the API needs, implemented by the built-in provider
 * (`local`) and by AWS Cognito (`cognito`). Implementations throw ApiError
 * with the spec's texts, keep the `users` row of every account in step with
 * the provider, and never see throttling (AuthService does that for both).
 */
export interface IdentityProvider {
  readonly name: 'local' | 'cognito';
  verificationSettings(): TokenVerificationSettings;
  /** Creates an unconfirmed account and sends it a verification code. */
  signUp(account: NewAccount): Promise<{ userId: string }>;
  confirmSignUp(email: string, code: string): Promise<void>;
  resendCode(email: string): Promise<void>;
  login(email: string, password: string): Promise<TokenSet>;
  refresh(refreshToken: string): Promise<TokenSet>;
  /** Revokes the refresh token (and its family); unknown tokens are ignored. */
  revokeRefreshToken(refreshToken: string): Promise<void>;
  forgotPassword(email: string): Promise<void>;
  resetPassword(email: string, code: string, newPassword: string): Promise<void>;
  changePassword(user: AuthenticatedUser, accessToken: string, oldPassword: string, newPassword: string): Promise<void>;
  /** Ends every session of the user. */
  globalSignOut(user: AuthenticatedUser, accessToken: string): Promise<void>;
  /** A session for someone who signed in through a social provider (creating the account on first sign-in). */
  socialSession(identity: SocialIdentity): Promise<TokenSet>;
  /** Removes the account at the provider; the caller deletes the user's data. */
  deleteUser(user: AuthenticatedUser, accessToken: string): Promise<void>;
}

export const IDENTITY_PROVIDER = Symbol('IdentityProvider');
