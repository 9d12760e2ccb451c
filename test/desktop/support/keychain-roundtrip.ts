/**
 * Runs the token vault against the real keytar in a process of its own:
 * jest gives each test file a copy of process.env, which a native module
 * (libsecret finding the D-Bus session) never sees. Prints one JSON line.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type KeychainModule, openTokenVault, type StoredTokens } from '../../../desktop/main/session/token-vault';
import { FakeCipher } from './fake-electron';

const tokens: StoredTokens = { accessToken: 'access-real', idToken: 'id-real', refreshToken: 'refresh-real', expiresAt: 1_800_000_000_000 };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loadKeytar = () => require('keytar') as KeychainModule;

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'cronbeam-rt-'));
  const vault = await openTokenVault(loadKeytar, new FakeCipher(), join(dir, 'session.bin'));
  await vault.write(tokens);
  const read = await vault.read();
  const raw = vault.kind === 'keychain' ? await loadKeytar().getPassword('Cronbeam', 'session') : null;
  await vault.clear();
  const afterClear = await vault.read();
  rmSync(dir, { recursive: true, force: true });
  process.stdout.write(`${JSON.stringify({ kind: vault.kind, roundTrip: JSON.stringify(read) === JSON.stringify(tokens), raw, afterClear })}\n`);
}

main().catch((error: unknown) => {
  process.stdout.write(`${JSON.stringify({ error: String(error) })}\n`);
  process.exitCode = 1;
});
