import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeychainVault, openTokenVault, SafeStorageVault, type KeychainModule, type StoredTokens } from '../../desktop/main/session/token-vault';
import { FakeCipher, FakeKeychain } from './support/fake-electron';
import { startPrivateSecretService } from './support/secret-service';

const tokens: StoredTokens = { accessToken: 'access-abc', idToken: 'id-def', refreshToken: 'refresh-ghi', expiresAt: 1_800_000_000_000 };

/** keytar as the app loads it; here its native build is normally absent. */
function loadRealKeytar(): KeychainModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('keytar') as KeychainModule;
}

describe('token vaults', () => {
  let dir: string;
  beforeEach(async () => (dir = await mkdtemp(join(tmpdir(), 'cronbeam-vault-'))));
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('uses the keychain when keytar loads and answers: store, read, delete', async () => {
    const keychain = new FakeKeychain();
    const vault = await openTokenVault(() => keychain, new FakeCipher(), join(dir, 'session.bin'));
    expect(vault).toBeInstanceOf(KeychainVault);
    expect(vault.kind).toBe('keychain');
    await vault.write(tokens);
    expect([...keychain.entries.keys()]).toEqual(['Cronbeam/session']);
    expect(await vault.read()).toEqual(tokens);
    await vault.clear();
    expect(await vault.read()).toBeNull();
    expect(keychain.entries.size).toBe(0);
  });

  it('falls back to safeStorage when keytar cannot load, and when the keychain does not answer (no Secret Service)', async () => {
    const missing = await openTokenVault(() => {
      throw new Error("Cannot find module 'keytar'");
    }, new FakeCipher(), join(dir, 'a.bin'));
    expect(missing.kind).toBe('safe-storage');
    const noService: KeychainModule = {
      getPassword: () => Promise.reject(new Error('The name org.freedesktop.secrets was not provided by any .service files')),
      setPassword: () => Promise.reject(new Error('unreachable')),
      deletePassword: () => Promise.reject(new Error('unreachable')),
    };
    expect((await openTokenVault(() => noService, new FakeCipher(), join(dir, 'b.bin'))).kind).toBe('safe-storage');
  });

  it('against the real OS keychain (keytar and a Secret Service): store, read, delete; without one, the safeStorage fallback', async () => {
    let keytarLoads = true;
    try {
      loadRealKeytar();
    } catch {
      keytarLoads = false;
    }
    const service = keytarLoads ? await startPrivateSecretService() : null;
    // CI installs libsecret, GNOME Keyring and D-Bus and builds keytar: there the real keychain must be used.
    if (process.env.CRONBEAM_REQUIRE_OS_KEYCHAIN === '1') expect({ keytarLoads, secretService: service !== null }).toEqual({ keytarLoads: true, secretService: true });
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, SWC_NODE_PROJECT: 'tsconfig.node.json' };
      if (service) env.DBUS_SESSION_BUS_ADDRESS = service.address;
      else delete env.DBUS_SESSION_BUS_ADDRESS;
      const run = () =>
        new Promise<Record<string, unknown>>((resolve, reject) => {
          execFile(process.execPath, ['-r', '@swc-node/register', join(__dirname, 'support/keychain-roundtrip.ts')], { env, cwd: join(__dirname, '../..') }, (error, stdout) =>
            stdout ? resolve(JSON.parse(stdout.trim().split('\n').at(-1)!)) : reject(error ?? new Error('no output')),
          );
        });
      let result = await run();
      // The keyring daemon registers on the bus a moment after it starts.
      for (let i = 0; service && result.kind !== 'keychain' && i < 10; i++) result = await run();
      expect(result).toEqual({
        kind: service ? 'keychain' : 'safe-storage',
        roundTrip: true,
        raw: service ? JSON.stringify({ accessToken: 'access-real', idToken: 'id-real', refreshToken: 'refresh-real', expiresAt: 1_800_000_000_000 }) : null,
        afterClear: null,
      });
    } finally {
      await service?.stop();
    }
  });

  it('safeStorage vault: encrypted file in the user-data folder, owner-only, read back, removed on clear', async () => {
    const file = join(dir, 'nested', 'session.bin');
    const vault = new SafeStorageVault(new FakeCipher(), file);
    expect(await vault.read()).toBeNull();
    await vault.write(tokens);
    const raw = await readFile(file);
    expect(raw.toString('utf8')).not.toContain('refresh-ghi');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await new SafeStorageVault(new FakeCipher(), file).read()).toEqual(tokens);
    await vault.clear();
    await expect(stat(file)).rejects.toThrow();
    expect(await vault.read()).toBeNull();
  });

  it('never writes tokens in the clear when OS encryption is unavailable', async () => {
    const file = join(dir, 'session.bin');
    const vault = new SafeStorageVault(new FakeCipher(false), file);
    await expect(vault.write(tokens)).rejects.toThrow('OS encryption is not available');
    await expect(stat(file)).rejects.toThrow();
  });

  it('a damaged store reads as signed out', async () => {
    const keychain = new FakeKeychain();
    await keychain.setPassword('Cronbeam', 'session', '{"accessToken": 1}');
    expect(await new KeychainVault(keychain).read()).toBeNull();
  });
});
