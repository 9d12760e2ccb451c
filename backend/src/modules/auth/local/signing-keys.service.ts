import { createHash, createPublicKey, generateKeyPair, type JsonWebKey } from 'node:crypto';
import { promisify } from 'node:util';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ResealSweep } from '../../../common/crypto/reseal-sweep';
import { SecretBox } from '../../../common/crypto/secret-box';
import { AppConfig } from '../../../config/app-config';
import type { SigningKeyEntity } from './signing-key.entity';
import { PRIVATE_KEY_COLUMN, SigningKeysRepository } from './signing-keys.repository';

const generateRsaKeyPair = promisify(generateKeyPair);
const DAY_MS = 86_400_000;
/** How long an instance trusts its cached choice of key before asking the database again. */
const RELOAD_MS = 60_000;

export interface PublicJwk extends JsonWebKey {
  kid: string;
  alg: 'RS256';
  use: 'sig';
}

/** RFC 7638 thumbprint: a stable key id derived from the public key itself. */
function thumbprint(jwk: JsonWebKey): string {
  return createHash('sha256').update(JSON.stringify({ e: jwk.e, kty: jwk.kty, n: jwk.n })).digest('base64url');
}

/**
 * The local provider's RS256 keys, kept in the database so every instance
 * signs with the same key and tokens survive restarts. A key older than
 * AUTH_SIGNING_KEY_MAX_AGE_DAYS is replaced; a replaced key stays published
 * until the last token it signed has expired.
 */
@Injectable()
export class SigningKeysService implements OnModuleInit {
  private readonly logger = new Logger(SigningKeysService.name);
  private current: SigningKeyEntity | undefined;
  private loadedAt = 0;
  private pending: Promise<SigningKeyEntity> | undefined;
  private readonly keyCreatedListeners: Array<() => void> = [];

  constructor(
    private readonly config: AppConfig,
    private readonly keys: SigningKeysRepository,
    private readonly box: SecretBox,
    private readonly resealSweep: ResealSweep,
  ) {}

  onModuleInit(): void {
    this.resealSweep.register('signing_keys.private_key_pem', (stopping) => this.keys.reseal(this.box, stopping));
  }

  /** The key to sign with now (generated on first use, rotated when too old), its private half decrypted. */
  async signingKey(): Promise<SigningKeyEntity> {
    const key = await this.activeKey();
    return { ...key, privateKeyPem: this.box.open(key.privateKeyPem, PRIVATE_KEY_COLUMN.place(key.kid)) };
  }

  /**
   * The active key as stored (private half sealed). Publishing and verifying
   * need only this, so a server that cannot decrypt the private key (wrong
   * ENCRYPTION_KEY) still accepts valid tokens and answers its error on the
   * request that needs a secret.
   */
  private async activeKey(): Promise<SigningKeyEntity> {
    if (this.current && Date.now() - this.loadedAt < RELOAD_MS && !this.isTooOld(this.current)) return this.current;
    this.pending ??= this.loadOrRotate().finally(() => (this.pending = undefined));
    this.current = await this.pending;
    this.loadedAt = Date.now();
    return this.current;
  }

  /** Every key a live token may have been signed with, as published at /.well-known/jwks.json. */
  async publicJwks(): Promise<PublicJwk[]> {
    await this.activeKey();
    const stillVerifying = new Date(Date.now() - this.config.env.AUTH_TOKEN_TTL_SECONDS * 1000);
    const rows = await this.keys.listVerifying(stillVerifying);
    return rows.map((k) => ({ ...k.publicJwk, kid: k.kid, alg: 'RS256', use: 'sig' }));
  }

  /** `listener` runs as soon as this instance made a new key (verifiers re-read the published keys). */
  onKeyCreated(listener: () => void): void {
    this.keyCreatedListeners.push(listener);
  }

  private isTooOld(key: SigningKeyEntity): boolean {
    return Date.now() - key.createdAt.getTime() > this.config.env.AUTH_SIGNING_KEY_MAX_AGE_DAYS * DAY_MS;
  }

  private async loadOrRotate(): Promise<SigningKeyEntity> {
    const newest = await this.keys.newestActive();
    if (newest && !this.isTooOld(newest)) return newest;
    const fresh = await this.generate();
    // Retire every other active key (also ones a concurrent instance made): newest wins.
    await this.keys.retireOthers(fresh);
    this.logger.log({ kid: fresh.kid }, newest ? 'Rotated the token signing key' : 'Generated the first token signing key');
    for (const listener of this.keyCreatedListeners) listener();
    return fresh;
  }

  private async generate(): Promise<SigningKeyEntity> {
    const { privateKey } = await generateRsaKeyPair('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' });
    const kid = thumbprint(publicJwk);
    return this.keys.insert({ kid, privateKeyPem: this.box.seal(privateKey, PRIVATE_KEY_COLUMN.place(kid)), publicJwk });
  }
}
