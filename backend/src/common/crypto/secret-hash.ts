import { createHash, randomBytes } from 'node:crypto';

/** A fresh opaque secret (refresh tokens, invitation links): 256 random bits, URL-safe. */
export function newOpaqueSecret(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * SHA-256 for high-entropy secrets stored for lookup (refresh tokens, codes
 * bound to a user id, invitation links). A slow hash is not needed: the inputs cannot be guessed
 * offline faster than the attempt limits allow online.
 */
export function sha256(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url');
}
