import { createHash, createHmac, createPrivateKey, generateKeyPairSync, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { IDENTITY_TOKEN_TTL_SECONDS, REQUEST_SIGNATURE_HEADER, signedRequestText } from '@cronbeam/shared/jobs/request-signing';
import { ResealSweep } from '../../common/crypto/reseal-sweep';
import { SecretBox } from '../../common/crypto/secret-box';
import { AppConfig } from '../../config/app-config';
import { TARGET_KEY_COLUMN, TargetTokenKeysRepository } from './target-token-keys.repository';

/** What a job's request is signed with: its secrets (current first; a rotated one while it overlaps) and, if asked, an identity token. */
export interface RequestSigning {
  jobId: string;
  /** Each signs the request (one v1 each); empty: no X-Cronbeam-Signature (a job made before signing, until its secret is rotated). */
  secrets: string[];
  /** The JWT's audience (the job's URL when the job set none); null: no Authorization token. */
  tokenAudience: string | null;
}

export interface PublicTargetJwk extends JsonWebKey {
  kid: string;
  alg: 'ES256';
  use: 'sig';
}

/** RFC 7638 thumbprint of an EC key: a stable key id derived from the key itself. */
function thumbprint(jwk: JsonWebKey): string {
  return createHash('sha256').update(JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y })).digest('base64url');
}

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * Signs jobs' requests to their targets: the HMAC header with the job's own
 * secrets, and the identity token (ES256 JWT) with Cronbeam's target key,
 * whose public half /.well-known/target-jwks.json publishes. The key is made
 * on first start and kept in the database (private half sealed), so every
 * instance signs with the same one. Both are computed when a request is
 * prepared, before its instant: an HMAC costs microseconds, an ES256
 * signature about a tenth of a millisecond.
 */
@Injectable()
export class RequestSigner implements OnModuleInit {
  private readonly logger = new Logger(RequestSigner.name);
  private key: { kid: string; privateKey: KeyObject } | null = null;
  private published: PublicTargetJwk[] = [];
  private readonly issuer: string;

  constructor(
    private readonly keys: TargetTokenKeysRepository,
    private readonly box: SecretBox,
    private readonly resealSweep: ResealSweep,
    config: AppConfig,
  ) {
    this.issuer = config.publicUrl;
  }

  async onModuleInit(): Promise<void> {
    this.resealSweep.register('target_token_keys.private_key', (stopping) => this.keys.reseal(this.box, stopping));
    let rows = await this.keys.all();
    if (rows.length === 0) {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const publicJwk = publicKey.export({ format: 'jwk' });
      const kid = thumbprint(publicJwk);
      const pem = privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
      await this.keys.insert({ kid, private_key: this.box.seal(pem, TARGET_KEY_COLUMN.place(kid)), public_jwk: publicJwk });
      this.logger.log({ kid }, 'Generated the key that signs identity tokens for job targets');
      rows = await this.keys.all();
    }
    this.published = rows.map((r) => ({ ...r.public_jwk, kid: r.kid, alg: 'ES256', use: 'sig' }));
    const signing = rows[0]!;
    try {
      this.key = { kid: signing.kid, privateKey: createPrivateKey(this.box.open(signing.private_key, TARGET_KEY_COLUMN.place(signing.kid))) };
    } catch (error) {
      // Without the master key that sealed it, identity tokens cannot be made; requests asking for one fail unsent (see sign).
      this.logger.error(`The identity token key cannot be read: ${(error as Error).message}`);
    }
  }

  /** The keys that verify identity tokens, as /.well-known/target-jwks.json publishes them. */
  publicJwks(): PublicTargetJwk[] {
    return this.published;
  }

  /**
   * The headers that sign a request as it is sent (`body`: what goes on the
   * wire, '' for none); null when an identity token is asked for but cannot
   * be made (the request must then not go out without it).
   */
  headers(signing: RequestSigning, executionId: string, method: string, url: string, body: string, now = Date.now()): Record<string, string> | null {
    const headers: Record<string, string> = {};
    const timestamp = Math.floor(now / 1000);
    if (signing.secrets.length > 0) {
      const text = signedRequestText(timestamp, method, url, body);
      const macs = signing.secrets.map((secret) => `v1=${createHmac('sha256', secret).update(text).digest('hex')}`);
      headers[REQUEST_SIGNATURE_HEADER] = `t=${timestamp},${macs.join(',')}`;
    }
    if (signing.tokenAudience !== null) {
      if (!this.key) return null;
      const header = { alg: 'ES256', typ: 'JWT', kid: this.key.kid };
      const claims = {
        iss: this.issuer,
        sub: `job:${signing.jobId}`,
        aud: signing.tokenAudience,
        iat: timestamp,
        exp: timestamp + IDENTITY_TOKEN_TTL_SECONDS,
        jti: executionId,
        job_id: signing.jobId,
        execution_id: executionId,
      };
      const input = `${base64url(header)}.${base64url(claims)}`;
      const signature = sign('sha256', Buffer.from(input), { key: this.key.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
      headers.authorization = `Bearer ${input}.${signature}`;
    }
    return headers;
  }
}
