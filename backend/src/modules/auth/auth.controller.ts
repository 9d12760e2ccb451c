import { Body, Controller, Header, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import {
  changePasswordSchema,
  emailOnlySchema,
  loginSchema,
  refreshSchema,
  resetPasswordSchema,
  signUpSchema,
  verifyEmailSchema,
  type ChangePasswordRequest,
  type LoginRequest,
  type ResetPasswordRequest,
  type SignUpRequest,
  type TokenResponse,
  type VerifyEmailRequest,
} from '@cronbeam/shared/auth/auth-schemas';
import { respondToChallengeSchema, type RespondToChallengeRequest, type SignInResponse } from '@cronbeam/shared/auth/mfa-schemas';
import { ApiError } from '../../common/http/api-error';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AppConfig } from '../../config/app-config';
import { CurrentUser, type AuthenticatedUser } from './authenticated-user';
import { AuthService } from './auth.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { assertSameOrigin } from './cookie-security';
import { clearRefreshCookie, refreshCookieOf } from './refresh-cookie';
import { bearerTokenOf, clientIp, requestOrigin } from './request-credentials';
import { NotAudited } from '../audit';
import { sessionResponse, signInResponse } from './session-response';
import { UserRoute } from './account-role.guard';

/** Why sign-ins write no audit entry (docs/adr/0182-audit-log.md). */
export const SIGN_IN = 'a sign-in opens a session and changes nothing the user set; the log records changes, and new devices are mailed to the user';

@Controller('api/auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly config: AppConfig,
  ) {}

  @Post('signup')
  async signUp(@Body(new ZodPipe(signUpSchema)) body: SignUpRequest, @Req() req: FastifyRequest) {
    const { userId } = await this.auth.signUp(body, requestOrigin(req));
    return { user_id: userId, email: body.email, user_confirmed: false };
  }

  @Post('verify')
  @HttpCode(200)
  async verify(@Body(new ZodPipe(verifyEmailSchema)) body: VerifyEmailRequest, @Req() req: FastifyRequest) {
    await this.auth.verifyEmail(body, requestOrigin(req));
    return { message: 'Email verified' };
  }

  @Post('resend-code')
  @HttpCode(200)
  @NotAudited('sends a new code; no setting changes')
  async resendCode(@Body(new ZodPipe(emailOnlySchema)) body: { email: string }, @Req() req: FastifyRequest) {
    await this.auth.resendCode(body.email, clientIp(req));
    return { message: 'Verification code sent' };
  }

  @Post('login')
  @HttpCode(200)
  @NotAudited(SIGN_IN)
  @Header('Cache-Control', 'no-store')
  async login(
    @Body(new ZodPipe(loginSchema)) body: LoginRequest,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SignInResponse> {
    return signInResponse(req, res, await this.auth.login(body.email, body.password, body.device_key, clientIp(req)), this.config);
  }

  /** The second step of a sign-in: the answer to the challenge the password step returned. */
  @Post('challenge')
  @HttpCode(200)
  @NotAudited(`${SIGN_IN}; an answer that sets a new password or an authenticator writes user.password_changed or user.two_factor_enabled`)
  @Header('Cache-Control', 'no-store')
  async respondToChallenge(
    @Body(new ZodPipe(respondToChallengeSchema)) body: RespondToChallengeRequest,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<SignInResponse> {
    return signInResponse(req, res, await this.auth.respondToChallenge(body, requestOrigin(req)), this.config);
  }

  @Post('refresh')
  @HttpCode(200)
  @NotAudited('a refresh token rotation is the client keeping its session, not a change a person made')
  @Header('Cache-Control', 'no-store')
  async refresh(
    @Body(new ZodPipe(refreshSchema)) body: { refresh_token?: string },
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<TokenResponse> {
    const token = body.refresh_token ?? this.cookieToken(req);
    if (!token) throw ApiError.unauthorized(AUTH_MESSAGES.invalidRefreshToken);
    return sessionResponse(req, res, await this.auth.refresh(token), this.config);
  }

  @Post('logout')
  @HttpCode(200)
  @NotAudited('ends one session; no setting changes')
  async logout(
    @Body(new ZodPipe(refreshSchema)) body: { refresh_token?: string },
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ) {
    await this.auth.logout(body.refresh_token ?? this.cookieToken(req));
    clearRefreshCookie(req, res, this.config);
    return { message: 'Logged out' };
  }

  @Post('forgot-password')
  @HttpCode(200)
  @NotAudited('sends a reset code; the password changes (and is recorded) only when the code is used')
  async forgotPassword(@Body(new ZodPipe(emailOnlySchema)) body: { email: string }, @Req() req: FastifyRequest) {
    await this.auth.forgotPassword(body.email, clientIp(req));
    return { message: 'Password reset code sent' };
  }

  @Post('reset-password')
  @HttpCode(200)
  async resetPassword(@Body(new ZodPipe(resetPasswordSchema)) body: ResetPasswordRequest, @Req() req: FastifyRequest) {
    await this.auth.resetPassword(body, requestOrigin(req));
    return { message: 'Password has been reset' };
  }

  @Post('change-password')
  @HttpCode(200)
  @UseGuards(BearerAuthGuard)
  @UserRoute()
  async changePassword(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(changePasswordSchema)) body: ChangePasswordRequest,
    @Req() req: FastifyRequest,
  ) {
    await this.auth.changePassword(user, bearerTokenOf(req), body, requestOrigin(req));
    return { message: 'Password changed' };
  }

  /** Ends every session of the caller on every device. */
  @Post('global-sign-out')
  @HttpCode(200)
  @UseGuards(BearerAuthGuard)
  @UserRoute()
  async globalSignOut(@CurrentUser() user: AuthenticatedUser, @Req() req: FastifyRequest, @Res({ passthrough: true }) res: FastifyReply) {
    await this.auth.globalSignOut(user, bearerTokenOf(req), requestOrigin(req));
    clearRefreshCookie(req, res, this.config);
    return { message: 'Signed out everywhere' };
  }

  /** The refresh token from the cookie; the browser sent it on its own, so the request must come from this site. */
  private cookieToken(req: FastifyRequest): string | undefined {
    const token = refreshCookieOf(req);
    if (token) assertSameOrigin(req, this.config.publicUrl);
    return token;
  }
}
