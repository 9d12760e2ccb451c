import { randomBytes } from 'node:crypto';
import { decodeMasterKey, masterKeyId, SecretBox, SecretUnreadableError } from './secret-box';

const PLACE = 'jobs.headers:6f0c1a2e-0000-4000-8000-000000000001';
const OTHER_PLACE = 'jobs.headers:6f0c1a2e-0000-4000-8000-000000000002';

/** `stored` with one character of part `index` (0: format, 1: key id, 2: wrapped key, 3: payload) changed. */
function flip(stored: string, index: number): string {
  const parts = stored.split('.');
  const part = parts[index]!;
  const at = Math.floor(part.length / 2);
  parts[index] = part.slice(0, at) + (part[at] === 'A' ? 'B' : 'A') + part.slice(at + 1);
  return parts.join('.');
}

describe('SecretBox', () => {
  const key = randomBytes(32);
  const box = new SecretBox(key);

  it('seals to text that reveals nothing of the value, and opens it again', () => {
    const secret = 'Bearer sk_live_abcdef0123456789';
    const sealed = box.seal(secret, PLACE);
    expect(sealed).toMatch(/^cb1\.[A-Za-z0-9_-]{8}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(sealed).not.toContain('sk_live');
    expect(sealed).not.toContain(Buffer.from(secret).toString('base64url').slice(0, 12));
    expect(box.open(sealed, PLACE)).toBe(secret);
  });

  it('gives every value its own data key and nonce (the same value seals differently)', () => {
    const a = box.seal('same', PLACE).split('.');
    const b = box.seal('same', PLACE).split('.');
    expect(a[2]).not.toBe(b[2]);
    expect(a[3]).not.toBe(b[3]);
  });

  it('refuses a value moved to another row (associated data binds its place)', () => {
    const sealed = box.seal('secret', PLACE);
    expect(() => box.open(sealed, OTHER_PLACE)).toThrow(SecretUnreadableError);
    expect(() => box.open(sealed, OTHER_PLACE)).toThrow(/integrity check/);
  });

  it.each([
    ['the payload', 3],
    ['the wrapped data key', 2],
  ])('detects a change to %s', (_what, index) => {
    const tampered = flip(box.seal('secret', PLACE), index);
    // A fresh box, so the changed wrapped key is not answered from the cache of unwrapped keys.
    expect(() => new SecretBox(key).open(tampered, PLACE)).toThrow(SecretUnreadableError);
  });

  it('refuses a value sealed under a key it does not have, naming the key ids', () => {
    const other = new SecretBox(randomBytes(32));
    const sealed = other.seal('secret', PLACE);
    let caught: unknown;
    try {
      box.open(sealed, PLACE);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SecretUnreadableError);
    expect((caught as SecretUnreadableError).keyId).toBe(other.currentKeyId);
    expect((caught as Error).message).toContain(other.currentKeyId);
    expect((caught as Error).message).toContain('ENCRYPTION_KEYS_PREVIOUS');
  });

  it('refuses a wrapped data key swapped in from a value sealed under the same master key', () => {
    const a = box.seal('first', PLACE).split('.');
    const b = box.seal('second', PLACE).split('.');
    const mixed = [a[0], a[1], b[2], a[3]].join('.');
    expect(() => new SecretBox(key).open(mixed, PLACE)).toThrow(SecretUnreadableError);
  });

  it('reads a value stored before encryption as it is, and reseal seals it', () => {
    expect(box.open('{"authorization":"x"}', PLACE)).toBe('{"authorization":"x"}');
    const sealed = box.reseal('{"authorization":"x"}', PLACE);
    expect(SecretBox.isSealed(sealed)).toBe(true);
    expect(box.isCurrent(sealed)).toBe(true);
    expect(box.open(sealed, PLACE)).toBe('{"authorization":"x"}');
  });

  it('rotates: a previous key still opens, and reseal re-wraps only the data key', () => {
    const oldKey = randomBytes(32);
    const sealedOld = new SecretBox(oldKey).seal('secret', PLACE);
    const newKey = randomBytes(32);
    const rotated = new SecretBox(newKey, [oldKey]);
    expect(rotated.isCurrent(sealedOld)).toBe(false);
    expect(rotated.open(sealedOld, PLACE)).toBe('secret');

    const resealed = rotated.reseal(sealedOld, PLACE);
    expect(resealed.startsWith(rotated.currentPrefix)).toBe(true);
    expect(resealed.split('.')[3]).toBe(sealedOld.split('.')[3]);
    expect(resealed.split('.')[2]).not.toBe(sealedOld.split('.')[2]);
    // Without the old key (after rotation finished) the re-wrapped value still opens.
    expect(new SecretBox(newKey).open(resealed, PLACE)).toBe('secret');
    expect(rotated.reseal(resealed, PLACE)).toBe(resealed);
  });

  it('refuses to reseal what it cannot open', () => {
    const sealed = new SecretBox(randomBytes(32)).seal('secret', PLACE);
    expect(() => box.reseal(sealed, PLACE)).toThrow(SecretUnreadableError);
  });
});

describe('master keys', () => {
  it('takes exactly 32 bytes of base64 (either alphabet, with or without padding)', () => {
    const key = randomBytes(32);
    expect(decodeMasterKey(key.toString('base64'))).toEqual(key);
    expect(decodeMasterKey(`${key.toString('base64url')}\n`)).toEqual(key);
    expect(decodeMasterKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(decodeMasterKey(randomBytes(33).toString('base64'))).toBeNull();
    expect(decodeMasterKey('not base64 at all!')).toBeNull();
  });

  it('derives a stable id that differs between keys', () => {
    const key = randomBytes(32);
    expect(masterKeyId(key)).toBe(masterKeyId(Buffer.from(key)));
    expect(masterKeyId(key)).not.toBe(masterKeyId(randomBytes(32)));
  });
});
