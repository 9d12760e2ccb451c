import { Controller, Delete, Get, HttpCode, Req, UseGuards } from '@nestjs/common';
import type { Request } from 'express';
import { bearerTokenOf, CurrentUser, type AuthenticatedUser } from '../auth';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { RecentAuthenticationGuard } from '../auth/recent-authentication.guard';
import { AccountsService } from './accounts.service';
import { UserRoute } from '../auth/account-role.guard';

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
  @UseGuards(RecentAuthenticationGuard)
  async delete(@CurrentUser() user: AuthenticatedUser, @Req() req: Request) {
    await this.accounts.delete(user, bearerTokenOf(req));
    return { message: 'Account deleted' };
  }
}
