import type { FastifyRequest } from 'fastify';
import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import jwt from 'jsonwebtoken';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { ACCOUNT_HEADER, ACCOUNT_PATH_PARAM } from '@cronbeam/shared/accounts/account-messages';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../common/http/api-error';
import type { AuthenticatedUser } from './authenticated-user';
import { IDENTITY_PROVIDER, type IdentityProvider } from './identity-provider';
import { UsersService, type CallerRow } from './users.service';
import { VerificationKeySet } from './verification-key-set';

export const JWT_STRATEGY = 'jwt';

/** How long the key set is used before it is re-read (in the background). */
const KEY_SET_MAX_AGE_MS = 10 * 60_000;
/** An unknown kid re-reads the key set at most this often; in between it is refused without a read. */
const UNKNOWN_KID_COOLDOWN_MS = 5_000;

/** The `kid` of a compact JWS's header, or undefined when there is none. */
function kidOf(rawJwtToken: string): string | undefined {
  const header = jwt.decode(rawJwtToken, { complete: true })?.header;
  return typeof header?.kid === 'string' ? header.kid : undefined;
}

/** True when a token issued at `issuedAt` (seconds) no longer counts: its user is gone or signed out everywhere after it was issued. */
export function sessionEndedFor(caller: CallerRow | null, issuedAt: number | undefined): boolean {
  const revokedAt = caller?.sessionsRevokedAt?.getTime();
  return !caller || (revokedAt !== undefined && (issuedAt ?? 0) < Math.floor(revokedAt / 1000));
}

/** Access-token claims the guard relies on (both providers issue them). */
interface AccessTokenClaims {
  sub?: string;
  token_use?: string;
  client_id?: string;
  iat?: number;
  exp?: number;
  /** When the session last proved a credential (both providers set it; refreshing keeps it). */
  auth_time?: number;
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
 * the TTL, well inside the 10 minutes for which the key set itself is kept.
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
    const keys = new VerificationKeySet(settings.fetchJwks, { maxAgeMs: KEY_SET_MAX_AGE_MS, unknownKidCooldownMs: UNKNOWN_KID_COOLDOWN_MS });
    settings.onKeysChanged?.(() => void keys.refreshNow());
    super({
      jwtFromRequest: bearerToken,
      passReqToCallback: true,
      algorithms: ['RS256'],
      issuer: settings.issuer,
      ignoreExpiration: false,
      secretOrKeyProvider: (_req: unknown, rawJwtToken: string, done: (err: unknown, key?: string) => void) => {
        // An error here fails the authentication (401) before any signature work.
        const kid = kidOf(rawJwtToken);
        if (!kid) return done(new Error('The token names no signing key'));
        keys.keyFor(kid).then(
          // passport-jwt hands the key to jsonwebtoken unchanged, which takes a KeyObject (its types name only string and Buffer).
          (key) => (key ? done(null, key as unknown as string) : done(new Error('The token names an unknown signing key'))),
          (err: unknown) => done(err),
        );
      },
    });
    this.clientId = settings.clientId;
  }

  /** A token verified recently is not verified again (VerifiedTokens); the user checks of validate() always run. */
  override authenticate(request: Parameters<Strategy['authenticate']>[0], options?: unknown): void {
    // Passport's types name Express's request; Nest hands it Fastify's.
    const req = request as unknown as FastifyRequest;
    const token = bearerToken(req);
    const claims = token ? this.verified.claimsOf(token) : undefined;
    if (!claims) return super.authenticate(request, options);
    const actions = this as unknown as PassportActions;
    this.checkCaller(claims, req).then(
      (user) => actions.success(user),
      (error: unknown) => actions.error(error),
    );
  }

  /** Called by passport-jwt once the token's signature, issuer and expiry have been verified. */
  async validate(req: FastifyRequest, claims: AccessTokenClaims): Promise<AuthenticatedUser> {
    const user = await this.checkCaller(claims, req);
    this.verified.remember(bearerToken(req)!, claims);
    return user;
  }

  /**
   * The user must exist and not have signed out everywhere since the token
   * was issued. The request acts in the account its path names
   * (/api/accounts/{accountId}/…), else the one its X-Cronbeam-Account
   * header names, else the user's personal account (which has the user's
   * id). A non-member gets no role there, which the role guard refuses on
   * every route but the user's own.
   */
  private async checkCaller(claims: AccessTokenClaims, req: FastifyRequest): Promise<AuthenticatedUser> {
    if (claims.token_use !== 'access' || claims.client_id !== this.clientId || !claims.sub) {
      throw ApiError.unauthorized(AUTH_MESSAGES.invalidToken);
    }
    const accountId = (req.params as Record<string, string> | undefined)?.[ACCOUNT_PATH_PARAM] ?? ((req.headers[ACCOUNT_HEADER.toLowerCase()] as string | undefined)?.trim() || claims.sub);
    const user = await this.users.findCallerIn(claims.sub, accountId);
    if (!user) throw ApiError.unauthorized(AUTH_MESSAGES.notAuthenticated);
    if (sessionEndedFor(user, claims.iat)) throw ApiError.unauthorized(AUTH_MESSAGES.invalidToken);
    return { id: user.id, email: user.email, via: 'jwt', accountId, role: user.role, tokenIssuedAt: claims.iat, authenticatedAt: claims.auth_time };
  }
}
