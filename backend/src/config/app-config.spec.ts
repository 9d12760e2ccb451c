import { AppConfig, ConfigError } from './app-config';
import { withoutTrailingSlashes } from '@cronbeam/shared/text/trailing-slashes';

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
    ['DATABASE_READ_URL', 'replica.internal:5432', /DATABASE_READ_URL: expected a postgres/],
    ['TRUST_PROXY', 'maybe', /TRUST_PROXY: expected the number of proxies in front \(0 to 10\) or a comma-separated list/],
    ['TRUST_PROXY', '11', /TRUST_PROXY: expected the number of proxies/],
    ['TRUST_PROXY', '10.0.0.1,10.1.0.0/33', /TRUST_PROXY: expected the number of proxies/],
    ['TRUST_PROXY', 'true', /TRUST_PROXY: true would take the left-most X-Forwarded-For address, .*give the number of proxies in front \(e\.g\. 1\)/],
  ])('rejects %s=%s naming the variable', (name, value, message) => {
    expect(() => AppConfig.fromEnvironment({ [name]: value })).toThrow(ConfigError);
    expect(() => AppConfig.fromEnvironment({ [name]: value })).toThrow(message);
  });

  it.each([
    [undefined, 0],
    ['false', 0],
    ['0', 0],
    ['1', 1],
    ['2', 2],
    ['10.0.0.5, 10.1.0.0/16,fd00::/8 ,loopback', ['10.0.0.5', '10.1.0.0/16', 'fd00::/8', 'loopback']],
  ])('reads TRUST_PROXY=%p as the proxies the HTTP server trusts (%p)', (value, trusted) => {
    expect(AppConfig.fromEnvironment({ TRUST_PROXY: value }).env.TRUST_PROXY).toEqual(trusted);
  });

  it('refuses DATABASE_READ_URL without DATABASE_URL: the embedded database has no replica', () => {
    expect(() => AppConfig.fromEnvironment({ DATABASE_READ_URL: 'postgres://replica/cronbeam' })).toThrow(/DATABASE_READ_URL: needs DATABASE_URL/);
    expect(AppConfig.fromEnvironment({ DATABASE_URL: 'postgres://primary/cronbeam', DATABASE_READ_URL: 'postgres://replica/cronbeam' }).env.DATABASE_READ_URL).toBe('postgres://replica/cronbeam');
  });

  it('refuses development mode with a PUBLIC_URL that is not this machine, naming the fix', () => {
    expect(() => AppConfig.fromEnvironment({ PUBLIC_URL: 'https://cronbeam.example' })).toThrow(
      /PUBLIC_URL: cronbeam\.example is not this machine, but NODE_ENV is development, .*\/api\/dev\/outbox: set NODE_ENV=production/,
    );
    expect(() => AppConfig.fromEnvironment({ NODE_ENV: 'development', PUBLIC_URL: 'http://192.168.1.20:3000' })).toThrow(ConfigError);
    for (const local of ['http://localhost:3000', 'http://app.localhost', 'http://127.0.0.1:8080/', 'http://[::1]:3000']) {
      expect(AppConfig.fromEnvironment({ PUBLIC_URL: local }).publicUrl).toBe(withoutTrailingSlashes(local));
    }
    // Tests name public-looking hosts; a test server answers the outbox only to loopback callers without proxy headers.
    expect(AppConfig.fromEnvironment({ NODE_ENV: 'test', PUBLIC_URL: 'https://cronbeam.example' }).publicUrl).toBe('https://cronbeam.example');
  });

  describe('production', () => {
    const key = 'dGVzdC1vbmx5IGtleSwgbmV2ZXIgdXNlIGl0IGFnYWk=';

    it('refuses to start without PUBLIC_URL, saying that instances would refuse each other\'s tokens', () => {
      for (const env of [{ ENCRYPTION_KEY: key }, { ENCRYPTION_KEY: key, AUTH_ISSUER: 'https://cron.example.com' }, { ENCRYPTION_KEY: key, AUTH_PROVIDER: 'cognito' }]) {
        expect(() => AppConfig.fromEnvironment({ NODE_ENV: 'production', ...env })).toThrow(ConfigError);
        expect(() => AppConfig.fromEnvironment({ NODE_ENV: 'production', ...env })).toThrow(
          /PUBLIC_URL: required when NODE_ENV=production: the address users reach the service at .*the same for every instance; it is the issuer of sign-in tokens, so instances without it would refuse each other's tokens/,
        );
      }
    });

    it('names every missing setting at once', () => {
      try {
        AppConfig.fromEnvironment({ NODE_ENV: 'production' });
        throw new Error('expected a ConfigError');
      } catch (error) {
        expect((error as ConfigError).problems.map((p) => p.split(':')[0])).toEqual(['ENCRYPTION_KEY', 'PUBLIC_URL']);
      }
    });

    it('starts with both, on any port: the public URL does not depend on it', () => {
      const on = (port: string) => AppConfig.fromEnvironment({ NODE_ENV: 'production', ENCRYPTION_KEY: key, PUBLIC_URL: 'https://cron.example.com/', PORT: port });
      expect(on('3000').publicUrl).toBe('https://cron.example.com');
      expect(on('3001').publicUrl).toBe('https://cron.example.com');
    });

    it('development and tests keep the local default', () => {
      expect(AppConfig.fromEnvironment({ NODE_ENV: 'test', PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
    });
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
