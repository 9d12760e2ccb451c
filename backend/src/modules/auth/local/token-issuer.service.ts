import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import jwt from 'jsonwebtoken';
import { AppConfig } from '../../../config/app-config';
import type { UserEntity } from '../user.entity';
import { SigningKeysService } from './signing-keys.service';
import { withoutTrailingSlashes } from '@cronbeam/shared/text/trailing-slashes';

/** The issuer every local token names (and the bearer guard demands). */
export function localIssuer(config: AppConfig): string {
  return withoutTrailingSlashes(config.env.AUTH_ISSUER ?? config.publicUrl);
}

/**
 * Signs the local provider's ID and access tokens with the current RS256 key.
 * Claims mirror those of Cognito's tokens (sub, email, token_use, client_id), so the web app and
 * the bearer guard read both providers' tokens the same way.
 */
@Injectable()
export class TokenIssuerService {
  constructor(
    private readonly config: AppConfig,
    private readonly keys: SigningKeysService,
  ) {}

  get ttlSeconds(): number {
    return this.config.env.AUTH_TOKEN_TTL_SECONDS;
  }

  /** `authenticatedAt`: when the session last proved a credential, carried as `auth_time` (as Cognito's tokens do). */
  async issue(user: UserEntity, authenticatedAt: Date): Promise<{ idToken: string; accessToken: string }> {
    const key = await this.keys.signingKey();
    const authTime = Math.floor(authenticatedAt.getTime() / 1000);
    const options: jwt.SignOptions = {
      algorithm: 'RS256',
      keyid: key.kid,
      issuer: localIssuer(this.config),
      subject: user.id,
      expiresIn: this.ttlSeconds,
    };
    const clientId = this.config.env.AUTH_CLIENT_ID;
    const idToken = jwt.sign({ email: user.email, name: user.name, token_use: 'id', auth_time: authTime }, key.privateKeyPem, {
      ...options,
      audience: clientId,
    });
    const accessToken = jwt.sign({ token_use: 'access', client_id: clientId, auth_time: authTime }, key.privateKeyPem, {
      ...options,
      jwtid: randomUUID(),
    });
    return { idToken, accessToken };
  }
}
