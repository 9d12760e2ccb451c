import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

/** Every sealed value starts with this: the format's version. Anything else is a value stored before encryption. */
const FORMAT = 'cb1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
/** Associated data of a wrapped data key: a data key only ever unwraps as one. */
const WRAP_AD = Buffer.from(`${FORMAT} data key`);
/** Unwrapped data keys kept in memory, so reading the same row again costs one AES-GCM decryption, not two. */
const DATA_KEY_CACHE_SIZE = 20_000;

/** A stored secret that cannot be read: sealed under a key this server does not have, or altered. */
export class SecretUnreadableError extends Error {
  constructor(
    message: string,
    readonly keyId: string | null,
  ) {
    super(message);
    this.name = 'SecretUnreadableError';
  }
}

/** A master key's id: derived from the key (so operators never name keys), not enough to learn anything about it. */
export function masterKeyId(key: Buffer): string {
  return createHmac('sha256', key).update('cronbeam master key id').digest().subarray(0, 6).toString('base64url');
}

/** 32 bytes from base64 text, or null when it is not exactly that. */
export function decodeMasterKey(text: string): Buffer | null {
  const trimmed = text.trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) return null;
  const key = Buffer.from(trimmed, 'base64');
  return key.length === KEY_BYTES ? key : null;
}

function encrypt(key: Buffer, plain: Buffer, ad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(ad);
  const body = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]);
}

/** Throws when the key, the associated data or a byte of `sealed` is not what encrypted it. */
function decrypt(key: Buffer, sealed: Buffer, ad: Buffer): Buffer {
  if (sealed.length < IV_BYTES + TAG_BYTES) throw new Error('too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(ad);
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES, sealed.length - TAG_BYTES)), decipher.final()]);
}

interface SealedParts {
  keyId: string;
  wrappedKey: string;
  payload: string;
}

function split(stored: string): SealedParts | null {
  const parts = stored.split('.');
  if (parts.length !== 4 || parts[0] !== FORMAT) return null;
  return { keyId: parts[1]!, wrappedKey: parts[2]!, payload: parts[3]! };
}

/**
 * Envelope encryption of secrets kept in the database. Each value gets a
 * data key of its own (AES-256-GCM), which is stored beside it wrapped by
 * the master key (AES-256-GCM too):
 *
 *   cb1.<master key id>.<wrapped data key>.<iv|ciphertext|tag>   (base64url parts)
 *
 * The value's associated data is its place (`table.column:row id`), so a
 * ciphertext copied to another row or column fails to open. Rotating the
 * master key re-wraps data keys only; the values' ciphertexts stay as they are.
 */
export class SecretBox {
  readonly currentKeyId: string;
  private readonly keys = new Map<string, Buffer>();
  private readonly dataKeys = new Map<string, Buffer>();

  /** `current` seals; `previous` keys only open (and are re-wrapped away by the reseal sweep). */
  constructor(current: Buffer, previous: Buffer[] = []) {
    this.currentKeyId = masterKeyId(current);
    this.keys.set(this.currentKeyId, current);
    for (const key of previous) if (!this.keys.has(masterKeyId(key))) this.keys.set(masterKeyId(key), key);
  }

  /** What every value sealed under the current key starts with (for SQL that finds the others: `starts_with(col, prefix)`). */
  get currentPrefix(): string {
    return `${FORMAT}.${this.currentKeyId}.`;
  }

  get hasPreviousKeys(): boolean {
    return this.keys.size > 1;
  }

  static isSealed(stored: string): boolean {
    return stored.startsWith(`${FORMAT}.`);
  }

  seal(plain: string, place: string): string {
    const dataKey = randomBytes(KEY_BYTES);
    const wrapped = encrypt(this.keys.get(this.currentKeyId)!, dataKey, WRAP_AD).toString('base64url');
    const payload = encrypt(dataKey, Buffer.from(plain, 'utf8'), Buffer.from(place, 'utf8')).toString('base64url');
    this.remember(`${this.currentKeyId}.${wrapped}`, dataKey);
    return `${FORMAT}.${this.currentKeyId}.${wrapped}.${payload}`;
  }

  /**
   * The clear value sealed for `place`. A value stored before encryption
   * (no format prefix) is answered as it is: the reseal sweep seals it at the
   * next start. Throws SecretUnreadableError otherwise.
   */
  open(stored: string, place: string): string {
    if (!SecretBox.isSealed(stored)) return stored;
    const parts = this.parts(stored);
    try {
      return decrypt(this.dataKey(parts), Buffer.from(parts.payload, 'base64url'), Buffer.from(place, 'utf8')).toString('utf8');
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw error;
      throw new SecretUnreadableError(`A stored secret of ${place} failed its integrity check (altered, or moved from another row)`, parts.keyId);
    }
  }

  /** True when `stored` needs no work from the sweep: sealed under the current key. */
  isCurrent(stored: string): boolean {
    return stored.startsWith(this.currentPrefix);
  }

  /**
   * `stored` in the current form: a clear value is sealed, a value sealed
   * under a previous key has its data key re-wrapped (the ciphertext is
   * kept, so nothing but the master key needs to be trusted for the change).
   */
  reseal(stored: string, place: string): string {
    if (!SecretBox.isSealed(stored)) return this.seal(stored, place);
    if (this.isCurrent(stored)) return stored;
    const parts = this.parts(stored);
    let dataKey: Buffer;
    try {
      dataKey = this.dataKey(parts);
    } catch (error) {
      if (error instanceof SecretUnreadableError) throw error;
      throw new SecretUnreadableError(`A stored secret of ${place} has a damaged data key`, parts.keyId);
    }
    const wrapped = encrypt(this.keys.get(this.currentKeyId)!, dataKey, WRAP_AD).toString('base64url');
    return `${FORMAT}.${this.currentKeyId}.${wrapped}.${parts.payload}`;
  }

  private parts(stored: string): SealedParts {
    const parts = split(stored);
    if (!parts) throw new SecretUnreadableError('A stored secret is not in a known format', null);
    if (!this.keys.has(parts.keyId)) {
      throw new SecretUnreadableError(
        `A stored secret is sealed under master key ${parts.keyId}, which is neither ENCRYPTION_KEY (${this.currentKeyId}) nor one of ENCRYPTION_KEYS_PREVIOUS`,
        parts.keyId,
      );
    }
    return parts;
  }

  private dataKey(parts: SealedParts): Buffer {
    const cacheKey = `${parts.keyId}.${parts.wrappedKey}`;
    const cached = this.dataKeys.get(cacheKey);
    if (cached) return cached;
    const dataKey = decrypt(this.keys.get(parts.keyId)!, Buffer.from(parts.wrappedKey, 'base64url'), WRAP_AD);
    this.remember(cacheKey, dataKey);
    return dataKey;
  }

  private remember(cacheKey: string, dataKey: Buffer): void {
    // Forgetting everything at the bound is crude but keeps the hit path a single Map lookup.
    if (this.dataKeys.size >= DATA_KEY_CACHE_SIZE) this.dataKeys.clear();
    this.dataKeys.set(cacheKey, dataKey);
  }
}
