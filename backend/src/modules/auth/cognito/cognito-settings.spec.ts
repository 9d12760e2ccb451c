import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { AppConfig } from '../../../config/app-config';
import { cognitoIssuer, cognitoSettings } from './cognito-settings';

const config = (env: Record<string, string>) => AppConfig.fromEnvironment({ AUTH_PROVIDER: 'cognito', ...env });

describe('cognito settings', () => {
  it('accepts region_suffix pool ids and derives the region and issuer', () => {
    const c = config({ COGNITO_USER_POOL_ID: 'eu-west-1_AbC123', COGNITO_CLIENT_ID: 'client' });
    expect(cognitoSettings(c)).toEqual({ region: 'eu-west-1', userPoolId: 'eu-west-1_AbC123', clientId: 'client', endpoint: undefined });
    expect(cognitoIssuer(c)).toBe('https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123');
  });

  it('uses another endpoint (cognito-local) for the issuer when given', () => {
    const c = config({ COGNITO_USER_POOL_ID: 'local_X1', COGNITO_CLIENT_ID: 'c', COGNITO_ENDPOINT: 'http://127.0.0.1:9229/' });
    expect(cognitoIssuer(c)).toBe('http://127.0.0.1:9229/local_X1');
  });

  it.each([['no-underscore'], ['eu-west-1_'], ['eu-west-1_has space'], [`eu-west-1_${'a'.repeat(50)}`]])('rejects the pool id %s', (id) => {
    expect(() => cognitoSettings(config({ COGNITO_USER_POOL_ID: id, COGNITO_CLIENT_ID: 'c' }))).toThrow(AUTH_MESSAGES.invalidUserPoolId);
  });

  it('requires both the pool id and the client id', () => {
    expect(() => cognitoSettings(config({ COGNITO_USER_POOL_ID: 'eu-west-1_A' }))).toThrow(AUTH_MESSAGES.poolAndClientRequired);
    expect(() => cognitoSettings(config({ COGNITO_CLIENT_ID: 'c' }))).toThrow(AUTH_MESSAGES.poolAndClientRequired);
  });
});
