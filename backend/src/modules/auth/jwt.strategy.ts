import { createPublicKey, type KeyObject } from 'node:crypto';
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

type KeyProvider = (req: unknown, rawJwtToken: string, done: (err: unknown, key?: string | Buffer) => void) => void;

/**
 * The JWKS provider answers PEM text, which the verifier would parse into a
 * key again on every request (a measurable share of a request's CPU); the
 * parsed key is kept per PEM instead. Only the keys the JWKS cache serves are
 * ever parsed, so this stays as small as that.
 */
function asKeyObjects(provider: KeyProvider): KeyProvider {
  const parsed = new Map<string, KeyObject>();
  return (req, token, done) =>
    provider(req, token, (err, key) => {
      if (err || typeof key !== 'string') return done(err, key);
      let object = parsed.get(key);
      if (!object) {
        if (parsed.size >= 32) parsed.clear();
        object = createPublicKey(key);
        parsed.set(key, object);
      }
      // passport-jwt hands the key to jsonwebtoken unchanged, which takes a KeyObject (its types name only string and Buffer).
      done(null, object as unknown as string);
    });
}

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
      secretOrKeyProvider: asKeyObjects(
        passportJwtSecret({
          jwksUri: settings.jwksUri,
          fetcher: settings.fetchJwks,
          // Keys by kid for 10 minutes; unknown kids (forged tokens) may refetch at most 30 times a minute.
          cache: true,
          cacheMaxAge: 10 * 60_000,
          rateLimit: true,
          jwksRequestsPerMinute: 30,
        }),
      ),
    });
    this.clientId = settings.clientId;
  }

  async validate(claims: AccessTokenClaims): Promise<AuthenticatedUser> {
    if (claims.token_use !== 'access' || claims.client_id !== this.clientId || !claims.sub) {
      throw ApiError.unauthorized(AUTH_MESSAGES.invalidToken);
    }
    const user = await this.users.findCaller(claims.sub);
    if (!user) throw ApiError.unauthorized(AUTH_MESSAGES.notAuthenticated);
    const revokedAt = user.sessionsRevokedAt?.getTime();
    if (revokedAt !== undefined && (claims.iat ?? 0) < Math.floor(revokedAt / 1000)) {
      throw ApiError.unauthorized(AUTH_MESSAGES.invalidToken);
    }
    return { id: user.id, email: user.email, via: 'jwt' };
  }
}
