import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TokenResponse } from '@cronbeam/shared/auth/auth-schemas';
import {
  enableTotpSchema,
  reauthenticateSchema,
  secondFactorProofSchema,
  updateProfileSchema,
  type EnableTotpRequest,
  type ReauthenticateRequest,
  type RecoveryCodesResponse,
  type RememberedDeviceView,
  type SecondFactorProof,
  type TotpSetupResponse,
  type TwoFactorStatus,
  type UpdateProfileRequest,
} from '@cronbeam/shared/auth/mfa-schemas';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { AppConfig } from '../../config/app-config';
import { CurrentUser, type AuthenticatedUser } from './authenticated-user';
import { AuthService } from './auth.service';
import { BearerAuthGuard } from './bearer-auth.guard';
import { RecentAuthenticationGuard } from './recent-authentication.guard';
import { bearerTokenOf, clientIp, requestOrigin } from './request-credentials';
import { NotAudited } from '../audit';
import { sessionResponse } from './session-response';
import { UserRoute } from './account-role.guard';

/** The signed-in user's own security settings: two-factor, recovery codes, remembered devices, display name. */
@Controller('api/auth')
@UseGuards(BearerAuthGuard)
@UserRoute()
export class AccountSecurityController {
  constructor(
    private readonly auth: AuthService,
    private readonly config: AppConfig,
  ) {}

  /**
   * Confirms it is still the account's owner (password, and the second factor
   * when on) and answers a new session whose tokens carry a fresh sign-in
   * time, which RecentAuthenticationGuard asks for. Social-only accounts sign
   * in with their provider again instead.
   */
  @Post('reauthenticate')
  @HttpCode(200)
  @NotAudited('a fresh session after the password is checked again; no setting changes')
  @Header('Cache-Control', 'no-store')
  async reauthenticate(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(reauthenticateSchema)) body: ReauthenticateRequest,
    @Req() req: FastifyRequest,
    @Res({ passthrough: true }) res: FastifyReply,
  ): Promise<TokenResponse> {
    return sessionResponse(req, res, await this.auth.reauthenticate(user, bearerTokenOf(req), body, clientIp(req)), this.config);
  }

  @Get('mfa')
  status(@CurrentUser() user: AuthenticatedUser, @Req() req: FastifyRequest): Promise<TwoFactorStatus> {
    return this.auth.twoFactorStatus(user, bearerTokenOf(req));
  }

  /** The secret is shown to its owner once, here; nothing else ever answers it. */
  @Post('mfa/totp/setup')
  @HttpCode(200)
  @NotAudited('a new authenticator secret is not in force until enabling confirms a code from it (that is recorded)')
  @UseGuards(RecentAuthenticationGuard)
  @Header('Cache-Control', 'no-store')
  setUp(@CurrentUser() user: AuthenticatedUser, @Req() req: FastifyRequest): Promise<TotpSetupResponse> {
    return this.auth.setUpTotp(user, bearerTokenOf(req));
  }

  @Post('mfa/totp/enable')
  @HttpCode(200)
  @UseGuards(RecentAuthenticationGuard)
  @Header('Cache-Control', 'no-store')
  enable(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(enableTotpSchema)) body: EnableTotpRequest,
    @Req() req: FastifyRequest,
  ): Promise<RecoveryCodesResponse> {
    return this.auth.enableTotp(user, bearerTokenOf(req), body.code, requestOrigin(req));
  }

  @Post('mfa/totp/disable')
  @HttpCode(200)
  async disable(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(secondFactorProofSchema)) body: SecondFactorProof, @Req() req: FastifyRequest) {
    await this.auth.disableTotp(user, bearerTokenOf(req), body, requestOrigin(req));
    return { message: 'Two-factor authentication is off' };
  }

  @Post('mfa/recovery-codes')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  regenerate(
    @CurrentUser() user: AuthenticatedUser,
    @Body(new ZodPipe(secondFactorProofSchema)) body: SecondFactorProof,
    @Req() req: FastifyRequest,
  ): Promise<RecoveryCodesResponse> {
    return this.auth.regenerateRecoveryCodes(user, bearerTokenOf(req), body, requestOrigin(req));
  }

  @Get('devices')
  devices(@CurrentUser() user: AuthenticatedUser, @Req() req: FastifyRequest): Promise<RememberedDeviceView[]> {
    return this.auth.listDevices(user, bearerTokenOf(req));
  }

  @Delete('devices/:id')
  @HttpCode(200)
  async forget(@CurrentUser() user: AuthenticatedUser, @Param('id') id: string, @Req() req: FastifyRequest) {
    await this.auth.forgetDevice(user, bearerTokenOf(req), id, requestOrigin(req));
    return { message: 'Device forgotten' };
  }

  /** The new name reaches the ID token at the next refresh (the web app refreshes right after). */
  @Patch('profile')
  async updateProfile(@CurrentUser() user: AuthenticatedUser, @Body(new ZodPipe(updateProfileSchema)) body: UpdateProfileRequest, @Req() req: FastifyRequest) {
    await this.auth.updateName(user, bearerTokenOf(req), body.name, requestOrigin(req));
    return { name: body.name };
  }
}
