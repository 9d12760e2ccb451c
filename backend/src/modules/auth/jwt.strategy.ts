import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { passportJwtSecret } from 'jwks-rsa';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AUTH_MESSAGES } from '@shared/auth/auth-messages';
import { ApiError } from '../../common/http/api-error';
import type { AuthenticatedUser } from './authenticated-user';
import { IDENTITY_PROVIDER, type IdentityProvider } from './identity-provider';
import { UsersService } from './users.service';

export const JWT_STRATEGY = 'jwt';

/** Access-token claims the guard relies on (both providers issue them). */
interface AccessTokenClaims {
  sub?: string;
  token_use?: string;
  client_id?: string;
  iat?: number;
}

/**
 * Verifies bearer access tokens of either provider: RS256 only, signed by a
 * key of the provider's JWKS, issuer and client id of this deployment,
 * token_use "access", not expired, and the user still exists and has not
 * signed out everywhere since the token was issued.
 */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, JWT_STRATEGY) {
  private readonly clientId: string;

  constructor(
    @Inject(IDENTITY_PROVIDER) provider: IdentityProvider,
    private readonly users: UsersService,
  ) {
    const settings = provider.verificationSettings();
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      algorithms: ['RS256'],
      issuer: settings.issuer,
      ignoreExpiration: false,
      secretOrKeyProvider: passportJwtSecret({
        jwksUri: settings.jwksUri,
        fetcher: settings.fetchJwks,
        // Keys by kid for 10 minutes; unknown kids (forged tokens) may refetch at most 30 times a minute.
        cache: true,
        cacheMaxAge: 10 * 60_000,
        rateLimit: true,
        jwksRequestsPerMinute: 30,
      }),
    });
    this.clientId = settings.clientId;
  }

  async validate(claims: AccessTokenClaims): Promise<AuthenticatedUser> {
    if (claims.token_use !== 'access' || claims.client_id !== this.clientId || !claims.sub) {
      throw ApiError.unauthorized(AUTH_MESSAGES.invalidToken);
    }
    const user = await this.users.findById(claims.sub);
    if (!user) throw ApiError.unauthorized(AUTH_MESSAGES.notAuthenticated);
    const revokedAt = user.sessionsRevokedAt?.getTime();
    if (revokedAt !== undefined && (claims.iat ?? 0) < Math.floor(revokedAt / 1000)) {
      throw ApiError.unauthorized(AUTH_MESSAGES.invalidToken);
    }
    return { id: user.id, email: user.email, via: 'jwt' };
  }
}
