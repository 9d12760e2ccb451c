import { Body, Controller, Get, Header, HttpCode, Post, Query, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  socialAuthorizeQuerySchema,
  socialLoginSchema,
  type AuthIntent,
  type SocialLoginRequest,
  type SocialProvider,
} from '@cronbeam/shared/auth/auth-schemas';
import type { SignInResponse } from '@cronbeam/shared/auth/mfa-schemas';
import { ZodPipe } from '../../../common/validation/zod-body.pipe';
import { AppConfig } from '../../../config/app-config';
import { NotAudited } from '../../audit';
import { SIGN_IN } from '../auth.controller';
import { requestOrigin } from '../request-credentials';
import { signInResponse } from '../session-response';
import { clearSocialFlowCookie, setSocialFlowCookie, socialFlowOf } from './social-flow-cookie';
import { SocialSignInService } from './social-sign-in.service';

@Controller('api/auth')
export class SocialController {
  constructor(
    private readonly social: SocialSignInService,
    private readonly config: AppConfig,
  ) {}

  /** 'Continue with Google': redirects the browser to the provider. */
  @Get('social/authorize')
  @Header('Cache-Control', 'no-store')
  async authorize(
    @Query(new ZodPipe(socialAuthorizeQuerySchema, 'query')) query: { provider: SocialProvider; intent: AuthIntent },
    @Req() req: FastifyRequest,
    @Res() res: FastifyReply,
  ): Promise<void> {
    const { url, flow } = await this.social.authorize(query.provider, query.intent);
    setSocialFlowCookie(req, res, flow, this.config.publicUrl);
    res.redirect(url, 302);
  }

  /** Posted by /auth/callback with the provider's code and state. */
  @Post('social-login')
  @HttpCode(200)
  @NotAudited(`${SIGN_IN}; only a first one, which creates the user, writes an entry (user.signed_up)`)
  @Header('Cache-Control', 'no-store')
  async socialLogin(
    @Body(new ZodPipe(socialLoginSchema)) body: SocialLoginRequest,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SignInResponse> {
    const flow = socialFlowOf(req);
    // The flow is single use, whatever the outcome.
    clearSocialFlowCookie(res);
    return signInResponse(req, res, await this.social.complete(body, flow, requestOrigin(req)), this.config);
  }
}
