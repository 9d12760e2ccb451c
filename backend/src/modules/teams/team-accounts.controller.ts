import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, UseGuards } from '@nestjs/common';
import {
  acceptInvitationSchema,
  type AcceptInvitationRequest,
  type AccountInvitation,
  type AccountMember,
  accountNameSchema,
  type AccountNameRequest,
  type AccountSummary,
  invitationSchema,
  type InvitationPreview,
  type InvitationRequest,
  memberRoleSchema,
  type MemberRoleRequest,
  transferSchema,
  type TransferRequest,
} from '@cronbeam/shared/accounts/account-rules';
import { ApiParam } from '@nestjs/swagger';
import { ACCOUNT_PATH_PARAM } from '@cronbeam/shared/accounts/account-messages';
import { ZodPipe } from '../../common/validation/zod-body.pipe';
import { type AuthenticatedUser, CurrentUser } from '../auth';
import { type Actor, AuditActor } from '../audit';
import { MinimumRole, UserRoute } from '../auth/account-role.guard';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { RecentAuthenticationGuard } from '../auth/recent-authentication.guard';
import { InvitationsService } from './invitations.service';
import { MembershipService } from './membership.service';

/** The accounts the caller belongs to, and making a new one: about the user, not one account. */
@Controller('api/accounts')
@UseGuards(BearerAuthGuard)
@UserRoute()
export class MyAccountsController {
  constructor(private readonly membership: MembershipService) {}

  @Get()
  list(@CurrentUser() user: AuthenticatedUser): Promise<AccountSummary[]> {
    return this.membership.accountsOf(user.id);
  }

  @Post()
  @HttpCode(200)
  create(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(accountNameSchema)) body: AccountNameRequest): Promise<AccountSummary> {
    return this.membership.create(actor, user.id, body.name);
  }
}

/**
 * One account's settings, members and invitations (its deletion, which ends
 * its billing too, is AccountsModule's TeamAccountDeletionController). The path names the
 * account the request acts in (not the X-Cronbeam-Account header), and the
 * role guard checks the caller's role there before the handler runs; the
 * handlers read it as `user.accountId`.
 */
@Controller(`api/accounts/:${ACCOUNT_PATH_PARAM}`)
@UseGuards(BearerAuthGuard)
@ApiParam({ name: ACCOUNT_PATH_PARAM, description: 'The account (one you are a member of)', schema: { type: 'string', format: 'uuid' } })
export class TeamAccountController {
  constructor(
    private readonly membership: MembershipService,
    private readonly invitations: InvitationsService,
  ) {}

  @Get()
  show(@CurrentUser() user: AuthenticatedUser): Promise<AccountSummary> {
    return this.membership.show(user);
  }

  @Patch()
  @MinimumRole('admin')
  rename(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(accountNameSchema)) body: AccountNameRequest): Promise<AccountSummary> {
    return this.membership.rename(actor, user, body.name);
  }

  /** Gives the account away, so it asks for a recent sign-in. */
  @Post('transfer')
  @HttpCode(200)
  @MinimumRole('owner')
  @UseGuards(RecentAuthenticationGuard)
  async transfer(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(transferSchema)) body: TransferRequest): Promise<{ message: string }> {
    await this.membership.transfer(actor, user, body.user_id);
    return { message: 'Ownership transferred' };
  }

  @Get('members')
  members(@CurrentUser() user: AuthenticatedUser): Promise<AccountMember[]> {
    return this.membership.list(user.accountId);
  }

  @Patch('members/:userId')
  @MinimumRole('admin')
  async setRole(
    @CurrentUser() user: AuthenticatedUser,
    @AuditActor() actor: Actor,
    @Param('userId') userId: string,
    @Body(new ZodPipe(memberRoleSchema)) body: MemberRoleRequest,
  ): Promise<{ message: string }> {
    await this.membership.setRole(actor, user.accountId, userId, body.role);
    return { message: 'Role changed' };
  }

  @Delete('members/:userId')
  @MinimumRole('admin')
  async remove(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('userId') userId: string): Promise<{ message: string }> {
    await this.membership.remove(actor, user, userId);
    return { message: 'Member removed' };
  }

  /** Any member but the owner may leave (a route of its own, so the role guard alone decides who may remove whom). */
  @Delete('membership')
  @MinimumRole('viewer')
  async leave(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor): Promise<{ message: string }> {
    await this.membership.remove(actor, user, user.id);
    return { message: 'You left the account' };
  }

  @Get('invitations')
  @MinimumRole('admin')
  listInvitations(@CurrentUser() user: AuthenticatedUser): Promise<AccountInvitation[]> {
    return this.invitations.listOpen(user.accountId);
  }

  @Post('invitations')
  @HttpCode(200)
  @MinimumRole('admin')
  invite(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(invitationSchema)) body: InvitationRequest): Promise<AccountInvitation> {
    return this.invitations.invite(actor, user, body);
  }

  @Delete('invitations/:invitationId')
  @MinimumRole('admin')
  async revoke(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Param('invitationId') invitationId: string): Promise<{ message: string }> {
    await this.invitations.revoke(actor, user.accountId, invitationId);
    return { message: 'Invitation revoked' };
  }
}

/** An invitation's link: what it is (public: the token is the secret), and accepting it (signed in with the invited address). */
@Controller('api/invitations')
export class InvitationsController {
  constructor(private readonly invitations: InvitationsService) {}

  @Post('accept')
  @HttpCode(200)
  @UseGuards(BearerAuthGuard)
  @UserRoute()
  accept(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor, @Body(new ZodPipe(acceptInvitationSchema)) body: AcceptInvitationRequest): Promise<AccountSummary> {
    return this.invitations.accept(actor, user, body.token);
  }

  @Get(':token')
  preview(@Param('token') token: string): Promise<InvitationPreview> {
    return this.invitations.preview(token);
  }
}
