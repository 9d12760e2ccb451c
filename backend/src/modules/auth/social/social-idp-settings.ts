import type { IssuerMetadata } from 'openid-client';
import type { SocialProvider } from '@cronbeam/shared/auth/auth-schemas';
import type { AppConfig } from '../../../config/app-config';
import { cognitoIssuer } from '../cognito/cognito-settings';
import { withoutTrailingSlashes } from '@cronbeam/shared/text/trailing-slashes';

/** Where and as whom the server runs the OpenID Connect code flow for one social provider. */
export interface SocialIdpSettings {
  /** Discovered from `<issuer>/.well-known/openid-configuration`, or given outright. */
  issuer: string | IssuerMetadata;
  clientId: string;
  /** Absent for public clients (Cognito app clients without a secret), which rely on PKCE alone. */
  clientSecret?: string;
  /** Extra authorization parameters (Cognito's hosted UI needs identity_provider). */
  authorizationParams: Record<string, string>;
}

/** The page of the web app the provider sends the browser back to. */
export function socialRedirectUri(config: AppConfig): string {
  return `${config.publicUrl}/auth/callback`;
}

/**
 * Local mode talks to the provider (Google) directly; cognito mode goes
 * through the user pool's hosted UI, which federates to the provider and
 * issues the pool's own tokens. Null when the deployment has not configured it.
 */
export function socialIdpSettings(config: AppConfig, provider: SocialProvider): SocialIdpSettings | null {
  const env = config.env;
  if (env.AUTH_PROVIDER === 'cognito') {
    if (!env.COGNITO_DOMAIN || !env.COGNITO_CLIENT_ID) return null;
    const domain = withoutTrailingSlashes(env.COGNITO_DOMAIN);
    const issuer = cognitoIssuer(config);
    return {
      issuer: {
        issuer,
        authorization_endpoint: `${domain}/oauth2/authorize`,
        token_endpoint: `${domain}/oauth2/token`,
        userinfo_endpoint: `${domain}/oauth2/userInfo`,
        jwks_uri: `${issuer}/.well-known/jwks.json`,
      },
      clientId: env.COGNITO_CLIENT_ID,
      // The provider's name as users read it: its first letter capitalised.
      authorizationParams: { identity_provider: provider.charAt(0).toUpperCase() + provider.slice(1) },
    };
  }
  if (!env.GOOGLE_CLIENT_ID) return null;
  return {
    issuer: env.GOOGLE_OIDC_ISSUER,
    clientId: env.GOOGLE_CLIENT_ID,
    clientSecret: env.GOOGLE_CLIENT_SECRET,
    authorizationParams: {},
  };
}
