import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import { AppConfig, ConfigError } from '../../config/app-config';
import { GENERATED_KEY_FILE, loadMasterKeys } from './master-keys';

describe('loadMasterKeys', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cronbeam-keys-'));
  });
  afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('uses ENCRYPTION_KEY and the previous keys when given', () => {
    const current = randomBytes(32);
    const old = randomBytes(32);
    const keys = loadMasterKeys(
      AppConfig.fromEnvironment({ DATA_DIR: dataDir, ENCRYPTION_KEY: current.toString('base64'), ENCRYPTION_KEYS_PREVIOUS: ` ${old.toString('base64')} ,` }),
    );
    expect(keys.current).toEqual(current);
    expect(keys.previous).toEqual([old]);
    expect(keys.keyFile).toBeNull();
    expect(fs.existsSync(path.join(dataDir, GENERATED_KEY_FILE))).toBe(false);
  });

  it('in development generates a key under DATA_DIR once, readable by the owner only, and keeps using it', () => {
    const config = AppConfig.fromEnvironment({ DATA_DIR: path.join(dataDir, 'nested') });
    const first = loadMasterKeys(config);
    const file = path.join(dataDir, 'nested', GENERATED_KEY_FILE);
    expect(first.keyFile).toBe(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(loadMasterKeys(config).current).toEqual(first.current);
  });

  it('refuses a damaged key file rather than generating a new key over it', () => {
    fs.writeFileSync(path.join(dataDir, GENERATED_KEY_FILE), 'short\n');
    expect(() => loadMasterKeys(AppConfig.fromEnvironment({ DATA_DIR: dataDir }))).toThrow(/does not hold a base64-encoded 32-byte key/);
  });

  it('in tests without a key uses one per process and writes nothing', () => {
    const config = AppConfig.fromEnvironment({ NODE_ENV: 'test', DATA_DIR: dataDir });
    expect(loadMasterKeys(config).current).toEqual(loadMasterKeys(config).current);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describe('encryption settings', () => {
  it('production refuses to start without ENCRYPTION_KEY, saying how to make one', () => {
    expect(() => AppConfig.fromEnvironment({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => AppConfig.fromEnvironment({ NODE_ENV: 'production', PUBLIC_URL: 'https://cron.example.com' })).toThrow(
      /ENCRYPTION_KEY: required when NODE_ENV=production .*openssl rand -base64 32/,
    );
    // With the other setting production requires, the key is all that was missing.
    expect(() =>
      AppConfig.fromEnvironment({ NODE_ENV: 'production', PUBLIC_URL: 'https://cron.example.com', ENCRYPTION_KEY: randomBytes(32).toString('base64') }),
    ).not.toThrow();
  });

  it.each([
    ['ENCRYPTION_KEY', randomBytes(16).toString('base64')],
    ['ENCRYPTION_KEY', 'correct horse battery staple'],
    ['ENCRYPTION_KEYS_PREVIOUS', `${randomBytes(32).toString('base64')},${randomBytes(31).toString('base64')}`],
  ])('refuses a malformed %s without echoing it', (name, value) => {
    let caught: unknown;
    try {
      AppConfig.fromEnvironment({ [name]: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toContain(`${name}: expected`);
    expect((caught as Error).message).toContain('32');
    expect((caught as Error).message).not.toContain(value);
  });
});
