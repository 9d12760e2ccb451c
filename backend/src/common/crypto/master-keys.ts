import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { AppConfig } from '../../config/app-config';
import { decodeMasterKey } from './secret-box';

/** Where development mode keeps the key it generated, beside the embedded database. */
export const GENERATED_KEY_FILE = 'encryption.key';

export interface MasterKeys {
  current: Buffer;
  previous: Buffer[];
  /** Set when the current key was generated or read from DATA_DIR rather than given in ENCRYPTION_KEY. */
  keyFile: string | null;
}

/** One key per test process: servers a test restarts on the same database read what the first one sealed. */
let testProcessKey: Buffer | undefined;

function previousKeys(config: AppConfig): Buffer[] {
  return (config.env.ENCRYPTION_KEYS_PREVIOUS ?? '')
    .split(',')
    .map((text) => text.trim())
    .filter(Boolean)
    .map((text) => decodeMasterKey(text)!);
}

/**
 * The master keys: ENCRYPTION_KEY when set (production refuses to start
 * without it, see AppConfig). Otherwise tests get one per process, and
 * development reads DATA_DIR/encryption.key, writing a new random key there
 * (owner-only) the first time, so `npm start` needs no setting.
 */
export function loadMasterKeys(config: AppConfig): MasterKeys {
  const previous = previousKeys(config);
  if (config.env.ENCRYPTION_KEY) return { current: decodeMasterKey(config.env.ENCRYPTION_KEY)!, previous, keyFile: null };
  if (config.isProduction) throw new Error('ENCRYPTION_KEY is required when NODE_ENV=production');
  if (config.env.NODE_ENV === 'test') return { current: (testProcessKey ??= randomBytes(32)), previous, keyFile: null };
  const file = path.join(config.dataDir, GENERATED_KEY_FILE);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(config.dataDir, { recursive: true });
    // 'wx' fails if another process created it meanwhile; then its key is the one to use.
    try {
      fs.writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  const current = decodeMasterKey(fs.readFileSync(file, 'utf8'));
  if (!current) throw new Error(`${file} does not hold a base64-encoded 32-byte key; restore it from a backup or set ENCRYPTION_KEY`);
  return { current, previous, keyFile: file };
}
