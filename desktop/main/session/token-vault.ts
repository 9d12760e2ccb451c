import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { TokenStoreKind } from '@cronbeam/shared/desktop/ipc-contract';

/** The stored session: what survives a restart. */
export interface StoredTokens {
  accessToken: string;
  idToken: string;
  refreshToken: string;
  /** Epoch ms when the access and ID tokens expire. */
  expiresAt: number;
}

/** Keeps one account's tokens across restarts. */
export interface TokenVault {
  readonly kind: TokenStoreKind;
  read(): Promise<StoredTokens | null>;
  write(tokens: StoredTokens): Promise<void>;
  clear(): Promise<void>;
}

/** The part of keytar the vault uses (keytar's own signatures). */
export interface KeychainModule {
  getPassword(service: string, account: string): Promise<string | null>;
  setPassword(service: string, account: string, password: string): Promise<void>;
  deletePassword(service: string, account: string): Promise<boolean>;
}

/** The part of Electron's safeStorage the fallback uses. */
export interface SecretCipher {
  isEncryptionAvailable(): boolean;
  encryptString(plain: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export const KEYCHAIN_SERVICE = 'Cronbeam';
const KEYCHAIN_ACCOUNT = 'session';

function parseTokens(text: string | null): StoredTokens | null {
  if (!text) return null;
  try {
    const value = JSON.parse(text) as Partial<StoredTokens>;
    if (typeof value.accessToken === 'string' && typeof value.idToken === 'string' && typeof value.refreshToken === 'string' && typeof value.expiresAt === 'number') {
      return value as StoredTokens;
    }
  } catch {
    // A damaged entry is treated as no session: the user signs in again.
  }
  return null;
}

/** Tokens in the OS keychain (macOS Keychain, Windows Credential Vault, Secret Service on Linux). */
export class KeychainVault implements TokenVault {
  readonly kind = 'keychain' as const;

  constructor(
    private readonly keychain: KeychainModule,
    private readonly service = KEYCHAIN_SERVICE,
  ) {}

  async read(): Promise<StoredTokens | null> {
    return parseTokens(await this.keychain.getPassword(this.service, KEYCHAIN_ACCOUNT));
  }

  async write(tokens: StoredTokens): Promise<void> {
    await this.keychain.setPassword(this.service, KEYCHAIN_ACCOUNT, JSON.stringify(tokens));
  }

  async clear(): Promise<void> {
    await this.keychain.deletePassword(this.service, KEYCHAIN_ACCOUNT);
  }
}

/**
 * Tokens encrypted with Electron safeStorage (which keys them to the OS
 * user) in a file of the user-data folder: where keytar cannot load.
 */
export class SafeStorageVault implements TokenVault {
  readonly kind = 'safe-storage' as const;

  constructor(
    private readonly cipher: SecretCipher,
    private readonly file: string,
  ) {}

  async read(): Promise<StoredTokens | null> {
    let encrypted: Buffer;
    try {
      encrypted = await readFile(this.file);
    } catch {
      return null;
    }
    try {
      return parseTokens(this.cipher.decryptString(encrypted));
    } catch {
      return null;
    }
  }

  async write(tokens: StoredTokens): Promise<void> {
    // Never write tokens in the clear: without OS encryption the session lives in memory only.
    if (!this.cipher.isEncryptionAvailable()) throw new Error('OS encryption is not available; the session is not stored');
    await mkdir(dirname(this.file), { recursive: true });
    // Written beside it, then renamed over it: a read (or a crash) meanwhile finds the old session whole, never a torn file.
    const partial = `${this.file}.${process.pid}.tmp`;
    await writeFile(partial, this.cipher.encryptString(JSON.stringify(tokens)), { mode: 0o600 });
    await rename(partial, this.file);
  }

  async clear(): Promise<void> {
    await rm(this.file, { force: true });
  }
}

/**
 * The keychain when keytar loads and answers, else the safeStorage file.
 * keytar is an optional native dependency: a missing build or a missing
 * Secret Service (a Linux without a keyring daemon) both fall back.
 */
export async function openTokenVault(loadKeychain: () => KeychainModule, cipher: SecretCipher, fallbackFile: string): Promise<TokenVault> {
  try {
    const keychain = loadKeychain();
    // A probe read: keytar loads on Linux without a Secret Service and fails only on first use.
    await keychain.getPassword(KEYCHAIN_SERVICE, KEYCHAIN_ACCOUNT);
    return new KeychainVault(keychain);
  } catch {
    return new SafeStorageVault(cipher, fallbackFile);
  }
}
