import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ConfigError, type AppConfig } from '../../../config/app-config';
import { withoutTrailingSlashes } from '@cronbeam/shared/text/trailing-slashes';

/** A user pool id is `<region>_<suffix>`, at most 55 characters (the managed service's own rule). */
const USER_POOL_ID = /^[\w-]+_[0-9a-zA-Z]+$/;

export interface CognitoSettings {
  region: string;
  userPoolId: string;
  clientId: string;
  /** cognito-local in tests; the regional AWS endpoint otherwise. */
  endpoint?: string;
}

/** Reads and checks the pool settings, failing at start with a message naming the bad variable. */
export function cognitoSettings(config: AppConfig): CognitoSettings {
  const { COGNITO_USER_POOL_ID: userPoolId, COGNITO_CLIENT_ID: clientId, COGNITO_ENDPOINT: endpoint } = config.env;
  if (!userPoolId || !clientId) throw new ConfigError([`COGNITO_USER_POOL_ID, COGNITO_CLIENT_ID: ${AUTH_MESSAGES.poolAndClientRequired}`]);
  if (userPoolId.length > 55 || !USER_POOL_ID.test(userPoolId)) {
    throw new ConfigError([`COGNITO_USER_POOL_ID: ${AUTH_MESSAGES.invalidUserPoolId}`]);
  }
  const region = config.env.COGNITO_REGION ?? userPoolId.split('_')[0];
  return { region, userPoolId, clientId, endpoint: (endpoint === undefined ? undefined : withoutTrailingSlashes(endpoint)) };
}

/** The `iss` of the pool's tokens; its JWKS is at `<issuer>/.well-known/jwks.json`. */
export function cognitoIssuer(config: AppConfig): string {
  const { region, userPoolId, endpoint } = cognitoSettings(config);
  return `${endpoint ?? `https://cognito-idp.${region}.amazonaws.com`}/${userPoolId}`;
}
