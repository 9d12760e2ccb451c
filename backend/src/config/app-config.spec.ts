import { AppConfig, ConfigError } from './app-config';

describe('AppConfig', () => {
  it('applies documented defaults', () => {
    const config = AppConfig.fromEnvironment({});
    expect(config.env.PORT).toBe(3000);
    expect(config.env.NODE_ENV).toBe('development');
    expect(config.env.DATABASE_URL).toBeUndefined();
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it.each([
    ['PORT', 'abc', /PORT: expected a whole number from 0 to 65535 \(got "abc"\)/],
    ['PORT', '70000', /PORT: expected a whole number/],
    ['NODE_ENV', 'staging', /NODE_ENV:/],
    ['DATABASE_URL', 'mysql://x', /DATABASE_URL: expected a postgres/],
    ['TRUST_PROXY', 'maybe', /TRUST_PROXY: expected true or false/],
  ])('rejects %s=%s naming the variable', (name, value, message) => {
    expect(() => AppConfig.fromEnvironment({ [name]: value })).toThrow(ConfigError);
    expect(() => AppConfig.fromEnvironment({ [name]: value })).toThrow(message);
  });

  it('never echoes values of variables that may hold credentials', () => {
    try {
      AppConfig.fromEnvironment({ DATABASE_URL: 'mysql://u:topsecret@h/db' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as Error).message).not.toContain('topsecret');
    }
  });
});
