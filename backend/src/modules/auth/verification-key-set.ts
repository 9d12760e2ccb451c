import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { JwksClient } from 'jwks-rsa';

/** Reads the provider's current JWKS document (`{ keys: [...] }`). */
export type JwksSource = () => Promise<{ keys: unknown[] }>;

export interface VerificationKeySetOptions {
  /** Past this age the set is re-read in the background; known keys are served meanwhile. */
  maxAgeMs: number;
  /**
   * An unknown `kid` re-reads the set at most once per this interval. Unknown
   * kids are what forged tokens carry, so this is the whole budget a flood of
   * them can spend; known kids never wait for it.
   */
  unknownKidCooldownMs: number;
}

/** How long one read of a remote JWKS may take before it counts as failed. */
const FETCH_TIMEOUT_MS = 5_000;

/** The RS256 signing keys of a JWKS document, parsed; entries that are not usable RSA signing keys are skipped. */
function parseKeys(document: { keys: unknown[] }): Map<string, KeyObject> {
  const keys = new Map<string, KeyObject>();
  for (const entry of Array.isArray(document?.keys) ? document.keys : []) {
    const jwk = entry as JsonWebKey & { kid?: unknown; use?: unknown; alg?: unknown };
    if (typeof jwk?.kid !== 'string' || jwk.kty !== 'RSA') continue;
    if (jwk.use !== undefined && jwk.use !== 'sig') continue;
    if (jwk.alg !== undefined && jwk.alg !== 'RS256') continue;
    try {
      keys.set(jwk.kid, createPublicKey({ key: jwk, format: 'jwk' }));
    } catch {
      // A malformed entry must not hide the others.
    }
  }
  return keys;
}

/**
 * Reads a JWKS over HTTPS (Cognito's pool keys) through jwks-rsa, with its own
 * cache and rate limit off: the set below is the one cache, and its cooldown is
 * the one budget, so a flood of unknown kids cannot spend what known keys need.
 */
export function remoteJwks(uri: string): JwksSource {
  const client = new JwksClient({ jwksUri: uri, cache: false, rateLimit: false, timeout: FETCH_TIMEOUT_MS });
  return async () => ({ keys: (await client.getKeys()) as unknown[] });
}

/**
 * The public keys that verify access tokens, by `kid`, held in memory.
 *
 * - A known kid is answered from memory, always: no read, no wait, no budget.
 * - An unknown kid re-reads the set at most once per `unknownKidCooldownMs`
 *   (one read shared by every caller that asks meanwhile); otherwise it is
 *   refused at once. A flood of forged tokens therefore costs one read per
 *   interval and cannot evict or delay a known key.
 * - Past `maxAgeMs` the set is re-read in the background, so a key the
 *   provider withdrew stops verifying; a failed read keeps the keys held.
 * - `refreshNow()` re-reads regardless of the cooldown: for the provider's
 *   own key changes, which no client can trigger.
 */
export class VerificationKeySet {
  private readonly logger = new Logger(VerificationKeySet.name);
  private keys = new Map<string, KeyObject>();
  private loadedAt = 0;
  private lastScheduledRead = Number.NEGATIVE_INFINITY;
  private lastUnknownKidRead = Number.NEGATIVE_INFINITY;
  private reading: Promise<void> | undefined;

  constructor(
    private readonly source: JwksSource,
    private readonly options: VerificationKeySetOptions,
  ) {}

  /** The key for `kid`, or undefined when the provider has no such key. */
  async keyFor(kid: string): Promise<KeyObject | undefined> {
    const now = Date.now();
    // The first read is awaited; a later one (the set got old) runs while the held keys keep answering.
    // Either is retried at most once per cooldown should it fail, so an unreachable provider is not hammered.
    if (now - this.loadedAt > this.options.maxAgeMs && now - this.lastScheduledRead >= this.options.unknownKidCooldownMs) {
      this.lastScheduledRead = now;
      if (this.loadedAt === 0) await this.read();
      else void this.read();
    }
    const known = this.keys.get(kid);
    if (known) return known;
    // A read already under way (a new key of the provider's own) is waited for: it costs nothing more.
    if (this.reading) {
      await this.reading;
      return this.keys.get(kid);
    }
    if (now - this.lastUnknownKidRead < this.options.unknownKidCooldownMs) return undefined;
    this.lastUnknownKidRead = now;
    await this.read();
    return this.keys.get(kid);
  }

  /** Re-reads the set now (the provider added or withdrew a key). */
  refreshNow(): Promise<void> {
    return this.read();
  }

  /** One read at a time; every caller waiting meanwhile shares it. A failure keeps the keys held. */
  private read(): Promise<void> {
    this.reading ??= this.source()
      .then((document) => {
        this.keys = parseKeys(document);
        this.loadedAt = Date.now();
      })
      .catch((err: unknown) => {
        this.logger.warn({ err }, 'Could not read the token verification keys; keeping the ones held');
      })
      .finally(() => (this.reading = undefined));
    return this.reading;
  }
}
