import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { serverUrlSchema } from '@cronbeam/shared/desktop/ipc-contract';

/** The desktop app's own preferences (no secrets: tokens live in the vault). */
export interface StoredSettings {
  serverUrl: string;
  startAtLogin: boolean;
  mutedJobIds: string[];
}

/** The hosted service; self-hosted users change it in Settings. Overridable with CRONBEAM_SERVER_URL. */
export const DEFAULT_SERVER_URL = 'https://app.cronbeam.io';

/**
 * Preferences in a JSON file of the user-data folder. A file that cannot be
 * read or holds an invalid value falls back to the defaults for that value.
 */
export class SettingsStore {
  private settings: StoredSettings;
  private readonly listeners = new Set<(settings: StoredSettings) => void>();

  private constructor(
    private readonly file: string,
    initial: StoredSettings,
  ) {
    this.settings = initial;
  }

  static async open(file: string, defaultServerUrl = DEFAULT_SERVER_URL): Promise<SettingsStore> {
    let raw: Partial<StoredSettings> = {};
    try {
      raw = JSON.parse(await readFile(file, 'utf8')) as Partial<StoredSettings>;
    } catch {
      // First start, or a damaged file: defaults.
    }
    const url = serverUrlSchema.safeParse(raw.serverUrl);
    return new SettingsStore(file, {
      serverUrl: url.success ? url.data : defaultServerUrl,
      startAtLogin: raw.startAtLogin === true,
      mutedJobIds: Array.isArray(raw.mutedJobIds) ? raw.mutedJobIds.filter((id): id is string => typeof id === 'string') : [],
    });
  }

  get value(): StoredSettings {
    return this.settings;
  }

  onChange(listener: (settings: StoredSettings) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  isMuted(jobId: string): boolean {
    return this.settings.mutedJobIds.includes(jobId);
  }

  async update(change: Partial<StoredSettings>): Promise<StoredSettings> {
    this.settings = { ...this.settings, ...change };
    await mkdir(dirname(this.file), { recursive: true });
    await writeFile(this.file, JSON.stringify(this.settings, null, 2));
    for (const listener of this.listeners) listener(this.settings);
    return this.settings;
  }

  setMuted(jobId: string, muted: boolean): Promise<StoredSettings> {
    const others = this.settings.mutedJobIds.filter((id) => id !== jobId);
    return this.update({ mutedJobIds: muted ? [...others, jobId] : others });
  }
}
