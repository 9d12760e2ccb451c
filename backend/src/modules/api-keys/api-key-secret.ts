import { createHash, randomBytes } from 'node:crypto';

/**
 * Key format: `cb_live_` + 48 hex characters (192 random bits). The fixed
 * prefix makes leaked keys recognisable to secret scanners and to the log
 * scrubber. Keys are random, not chosen by people, so a plain SHA-256 is a
 * sufficient one-way hash (no salt or slow hash needed to resist guessing).
 */
const KEY_PREFIX = 'cb_live_';
const KEY_FORMAT = /^cb_live_[0-9a-f]{48}$/;
/** How much of the key the list shows. */
const VISIBLE_CHARS = KEY_PREFIX.length + 6;

export function generateApiKeySecret(): string {
  return KEY_PREFIX + randomBytes(24).toString('hex');
}

export function hashApiKeySecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function visiblePrefix(secret: string): string {
  return secret.slice(0, VISIBLE_CHARS);
}

export function looksLikeApiKey(value: string): boolean {
  return KEY_FORMAT.test(value);
}
