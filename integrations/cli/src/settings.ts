import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createCronbeamClient, normaliseBaseUrl, type CronbeamClient } from '@cronbeam/sdk';
import { CliError, EXIT } from './exit-codes';

/** The keychain entry's service name; its account is the URL and user id, so several logins can coexist. */
const KEYCHAIN_SERVICE = 'cronbeam';

/** What `cronbeam login` keeps. The key is in the OS keychain when one answered, else here (the file is 0600). */
interface StoredLogin {
  url: string;
  user_id: string | null;
  key_in: 'keychain' | 'file';
  api_key?: string;
}

export interface Settings {
  url: string;
  apiKey: string;
  userId: string | null;
}

type Keytar = typeof import('keytar');

/** Where the login is kept: CRONBEAM_CONFIG_DIR, else the platform's per-user configuration folder. */
export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CRONBEAM_CONFIG_DIR) return env.CRONBEAM_CONFIG_DIR;
  if (process.platform === 'win32' && env.APPDATA) return join(env.APPDATA, 'cronbeam');
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'cronbeam');
}

const loginFile = () => join(configDir(), 'config.json');

/**
 * The OS keychain (keytar), or null where there is none that answers: keytar
 * is an optional dependency (no prebuilt binary on some systems), a server
 * may have no secret service running, and CRONBEAM_KEYCHAIN=off opts out.
 */
async function keychain(): Promise<Keytar | null> {
  if (process.env.CRONBEAM_KEYCHAIN === 'off') return null;
  try {
    const loaded = (await import('keytar')) as Keytar & { default?: Keytar };
    const keytar = loaded.default ?? loaded;
    await keytar.findCredentials(KEYCHAIN_SERVICE);
    return keytar;
  } catch {
    return null;
  }
}

const keychainAccount = (url: string, userId: string | null) => `${url} ${userId ?? ''}`.trim();

function readLogin(): StoredLogin | null {
  const file = loginFile();
  if (!existsSync(file)) return null;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as StoredLogin;
  } catch {
    throw new CliError(`${file} is not valid JSON: run cronbeam login again`, EXIT.auth);
  }
}

function writeLogin(login: StoredLogin): void {
  mkdirSync(configDir(), { recursive: true, mode: 0o700 });
  writeFileSync(loginFile(), `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  // An existing file keeps its mode on write: set it every time.
  chmodSync(loginFile(), 0o600);
}

/** Keeps a checked login; returns where the key went. */
export async function saveLogin(settings: Settings): Promise<{ keyIn: 'keychain' | 'file'; file: string }> {
  const keytar = await keychain();
  let keyIn: 'keychain' | 'file' = 'file';
  if (keytar) {
    try {
      await keytar.setPassword(KEYCHAIN_SERVICE, keychainAccount(settings.url, settings.userId), settings.apiKey);
      keyIn = 'keychain';
    } catch {
      // A keychain that loads but refuses to store (locked, no session): the file takes the key.
    }
  }
  writeLogin({ url: settings.url, user_id: settings.userId, key_in: keyIn, ...(keyIn === 'file' ? { api_key: settings.apiKey } : {}) });
  return { keyIn, file: loginFile() };
}

/** Forgets the stored login (keychain entry and file); true when there was one. */
export async function removeLogin(): Promise<boolean> {
  const login = readLogin();
  if (!login) return false;
  if (login.key_in === 'keychain') await (await keychain())?.deletePassword(KEYCHAIN_SERVICE, keychainAccount(login.url, login.user_id));
  rmSync(loginFile(), { force: true });
  return true;
}

/**
 * The URL, key and user id to call with: CRONBEAM_URL, CRONBEAM_API_KEY and
 * CRONBEAM_USER_ID (the MCP server's variables, for CI) override the stored login.
 */
export async function resolveSettings(env: NodeJS.ProcessEnv = process.env): Promise<Settings> {
  const login = readLogin();
  const rawUrl = env.CRONBEAM_URL?.trim() || login?.url;
  let apiKey = env.CRONBEAM_API_KEY?.trim() || null;
  const userId = env.CRONBEAM_USER_ID?.trim() || login?.user_id || null;
  if (!apiKey && login) {
    apiKey = login.key_in === 'file' ? (login.api_key ?? null) : ((await (await keychain())?.getPassword(KEYCHAIN_SERVICE, keychainAccount(login.url, login.user_id))) ?? null);
  }
  if (!rawUrl || !apiKey) throw new CliError('Not logged in: run cronbeam login, or set CRONBEAM_URL, CRONBEAM_API_KEY and CRONBEAM_USER_ID', EXIT.auth);
  return { url: checkedUrl(rawUrl), apiKey, userId };
}

export function checkedUrl(raw: string): string {
  try {
    return normaliseBaseUrl(raw);
  } catch {
    throw new CliError(`'${raw}' is not an http:// or https:// URL (example: https://cronbeam.example)`, EXIT.usage);
  }
}

export function clientFor(settings: Settings): CronbeamClient {
  return createCronbeamClient({ baseUrl: settings.url, apiKey: settings.apiKey, userId: settings.userId });
}
