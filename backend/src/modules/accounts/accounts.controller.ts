import { Controller, Delete, Get, HttpCode, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { bearerTokenOf, CurrentUser, type AuthenticatedUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { RecentAuthenticationGuard } from '../auth/recent-authentication.guard';
import { type Actor, AuditActor, NotAudited } from '../audit';
import { AccountsService } from './accounts.service';
import { MinimumRole, UserRoute } from '../auth/account-role.guard';
import { ApiParam } from '@nestjs/swagger';
import { ACCOUNT_PATH_PARAM } from '@cronbeam/shared/accounts/account-messages';

@Controller('api/account')
@UseGuards(BearerAuthGuard)
@UserRoute()
export class AccountsController {
  constructor(private readonly accounts: AccountsService) {}

  @Get()
  show(@CurrentUser() user: AuthenticatedUser) {
    return this.accounts.show(user);
  }

  /** Irreversible, so it asks for a recent sign-in. */
  @Delete()
  @HttpCode(200)
  @NotAudited("the user's personal account goes with them, and its audit log with it (ON DELETE CASCADE): an entry would go too")
  @UseGuards(RecentAuthenticationGuard)
  async delete(@CurrentUser() user: AuthenticatedUser, @Req() req: FastifyRequest) {
    await this.accounts.delete(user, bearerTokenOf(req));
    return { message: 'Account deleted' };
  }
}

/**
 * Deleting a team account: here rather than beside the account's other
 * settings (TeamsModule) because it ends the account's Stripe subscription
 * first, and billing depends on teams, not the other way round.
 */
@Controller(`api/accounts/:${ACCOUNT_PATH_PARAM}`)
@UseGuards(BearerAuthGuard)
@ApiParam({ name: ACCOUNT_PATH_PARAM, description: 'The account (one you are a member of)', schema: { type: 'string', format: 'uuid' } })
export class TeamAccountDeletionController {
  constructor(private readonly accounts: AccountsService) {}

  /** Irreversible, so it asks for a recent sign-in. */
  @Delete()
  @MinimumRole('owner')
  @UseGuards(RecentAuthenticationGuard)
  async delete(@CurrentUser() user: AuthenticatedUser, @AuditActor() actor: Actor): Promise<{ message: string }> {
    await this.accounts.deleteTeam(actor, user);
    return { message: 'Account deleted' };
  }
}
