import { createPublicKey, type KeyObject } from 'node:crypto';
import type { Request } from 'express';
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
  exp?: number;
}

/** How long a token's verified signature is trusted without checking it again. */
export const VERIFIED_TOKEN_TTL_MS = 60_000;
/** Tokens remembered at most; past it the oldest is forgotten (each entry is the token and its claims, ~1 KB). */
const VERIFIED_TOKENS_MAX = 10_000;

/**
 * Access tokens whose signature, issuer and expiry passed verification, by
 * their exact text, until they expire or for VERIFIED_TOKEN_TTL_MS, whichever
 * comes first. Checking an RS256 signature again for every request of the same
 * session was, with the JWKS look-up around it, about a twentieth of a
 * listed-jobs request's CPU (docs/adr/0110-api-throughput.md).
 *
 * Only the signature check is skipped: the per-request checks on the user
 * (exists, not signed out everywhere since the token was issued) run on every
 * request. A signing key withdrawn from the JWKS stops being honoured within
 * the TTL, well inside the 10 minutes for which jwks-rsa already keeps keys.
 */
class VerifiedTokens {
  private readonly entries = new Map<string, { claims: AccessTokenClaims; until: number }>();

  claimsOf(token: string): AccessTokenClaims | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (Date.now() < entry.until) return entry.claims;
    this.entries.delete(token);
    return undefined;
  }

  remember(token: string, claims: AccessTokenClaims): void {
    const until = Math.min(Date.now() + VERIFIED_TOKEN_TTL_MS, (claims.exp ?? 0) * 1000);
    if (until <= Date.now()) return;
    // A Map iterates in insertion order: its first key is the oldest entry.
    if (this.entries.size >= VERIFIED_TOKENS_MAX) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(token, { claims, until });
  }
}

const bearerToken = ExtractJwt.fromAuthHeaderAsBearerToken();

/** What passport adds to a strategy for the request it authenticates (passport's strategy interface). */
interface PassportActions {
  success(user: unknown): void;
  error(err: unknown): void;
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
  private readonly verified = new VerifiedTokens();

  constructor(
    @Inject(IDENTITY_PROVIDER) provider: IdentityProvider,
    private readonly users: UsersService,
  ) {
    const settings = provider.verificationSettings();
    super({
      jwtFromRequest: bearerToken,
      passReqToCallback: true,
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

  /** A token verified recently is not verified again (VerifiedTokens); the user checks of validate() always run. */
  override authenticate(req: Request, options?: unknown): void {
    const token = bearerToken(req);
    const claims = token ? this.verified.claimsOf(token) : undefined;
    if (!claims) return super.authenticate(req, options);
    const actions = this as unknown as PassportActions;
    this.checkCaller(claims).then(
      (user) => actions.success(user),
      (error: unknown) => actions.error(error),
    );
  }

  /** Called by passport-jwt once the token's signature, issuer and expiry have been verified. */
  async validate(req: Request, claims: AccessTokenClaims): Promise<AuthenticatedUser> {
    const user = await this.checkCaller(claims);
    this.verified.remember(bearerToken(req)!, claims);
    return user;
  }

  private async checkCaller(claims: AccessTokenClaims): Promise<AuthenticatedUser> {
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
