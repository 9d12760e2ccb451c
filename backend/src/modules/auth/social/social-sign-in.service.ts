import { Injectable, Logger } from '@nestjs/common';
import { generators, Issuer, type BaseClient } from 'openid-client';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { AuthIntent, SocialLoginRequest, SocialProvider } from '@cronbeam/shared/auth/auth-schemas';
import { ApiError } from '../../../common/http/api-error';
import { AppConfig } from '../../../config/app-config';
import { AuthService } from '../auth.service';
import type { SignInResult } from '../identity-provider';
import type { RequestOrigin } from '../request-credentials';
import type { SocialFlow } from './social-flow-cookie';
import { socialIdpSettings, socialRedirectUri, type SocialIdpSettings } from './social-idp-settings';

const SCOPE = 'openid email profile';

/**
 * Social sign-in by the OpenID Connect authorization-code flow with PKCE,
 * state and nonce (openid-client): the browser is sent to the provider, comes
 * back to /auth/callback with a code, and the web app posts it here; the
 * server redeems it and turns the verified ID token into a session.
 */
@Injectable()
export class SocialSignInService {
  private readonly logger = new Logger(SocialSignInService.name);
  private readonly clients = new Map<SocialProvider, Promise<BaseClient>>();

  constructor(
    private readonly config: AppConfig,
    private readonly auth: AuthService,
  ) {}

  /** The provider URL to send the browser to, and the flow to remember for its return. */
  async authorize(provider: SocialProvider, intent: AuthIntent): Promise<{ url: string; flow: SocialFlow }> {
    const { client, settings } = await this.client(provider);
    const flow: SocialFlow = {
      provider,
      intent,
      state: generators.state(),
      nonce: generators.nonce(),
      codeVerifier: generators.codeVerifier(),
    };
    const url = client.authorizationUrl({
      scope: SCOPE,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: generators.codeChallenge(flow.codeVerifier),
      code_challenge_method: 'S256',
      ...settings.authorizationParams,
    });
    return { url, flow };
  }

  async complete(request: SocialLoginRequest, flow: SocialFlow | null, origin: RequestOrigin): Promise<SignInResult> {
    if (request.error) throw ApiError.unauthorized(AUTH_MESSAGES.authenticationFailed);
    if (!request.code) throw ApiError.badRequest(AUTH_MESSAGES.noAuthorizationCode);
    // No remembered flow, or a state that is not ours: this browser did not start this sign-in.
    if (!flow || request.state !== flow.state) throw ApiError.unauthorized(AUTH_MESSAGES.authenticationFailed);

    const { client } = await this.client(flow.provider);
    let tokens;
    try {
      tokens = await client.callback(
        socialRedirectUri(this.config),
        { code: request.code, state: request.state, iss: request.iss },
        { state: flow.state, nonce: flow.nonce, code_verifier: flow.codeVerifier },
      );
    } catch (error) {
      this.logger.warn({ err: error, provider: flow.provider }, 'Social sign-in: code exchange failed');
      throw ApiError.unauthorized(AUTH_MESSAGES.codeExchangeFailed);
    }
    const claims = tokens.claims();
    const email = typeof claims.email === 'string' ? claims.email : undefined;
    if (!email || claims.email_verified === false) {
      this.logger.warn({ provider: flow.provider }, 'Social sign-in: the provider vouched for no verified email');
      throw ApiError.unauthorized(AUTH_MESSAGES.authenticationFailed);
    }
    return this.auth.socialSession({
      provider: flow.provider,
      subject: claims.sub,
      email,
      name: typeof claims.name === 'string' && claims.name ? claims.name : email,
      intent: flow.intent,
      providerTokens: {
        accessToken: tokens.access_token,
        idToken: tokens.id_token,
        refreshToken: tokens.refresh_token,
        expiresIn: tokens.expires_in,
      },
    }, origin);
  }

  /** One openid-client Client per provider, discovered on first use (a failed discovery is retried next time). */
  private async client(provider: SocialProvider): Promise<{ client: BaseClient; settings: SocialIdpSettings }> {
    const settings = socialIdpSettings(this.config, provider);
    if (!settings) throw ApiError.notFound('Social sign-in is not configured');
    let client = this.clients.get(provider);
    if (!client) {
      client = this.buildClient(settings);
      this.clients.set(provider, client);
      client.catch(() => this.clients.delete(provider));
    }
    try {
      return { client: await client, settings };
    } catch (error) {
      this.logger.error({ err: error, provider }, 'Social sign-in: the identity provider could not be reached');
      throw ApiError.unauthorized(AUTH_MESSAGES.socialLoginFailed);
    }
  }

  private async buildClient(settings: SocialIdpSettings): Promise<BaseClient> {
    const issuer = typeof settings.issuer === 'string' ? await Issuer.discover(settings.issuer) : new Issuer(settings.issuer);
    return new issuer.Client({
      client_id: settings.clientId,
      client_secret: settings.clientSecret,
      redirect_uris: [socialRedirectUri(this.config)],
      response_types: ['code'],
      token_endpoint_auth_method: settings.clientSecret ? 'client_secret_basic' : 'none',
    });
  }
}
