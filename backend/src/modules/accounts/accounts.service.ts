import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { IDENTITY_PROVIDER, toUserView, type AuthenticatedUser, type IdentityProvider } from '../auth';
import { UsersService } from '../auth/users.service';
import { BillingService } from '../billing/billing.service';
import type { UserView } from '@cronbeam/shared/auth/user-view';


/** The account as a whole: deleting it removes the identity and everything the user owns. */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    @Inject(IDENTITY_PROVIDER) private readonly provider: IdentityProvider,
    private readonly users: UsersService,
    private readonly billing: BillingService,
  ) {}

  async show(user: AuthenticatedUser): Promise<UserView> {
    const row = await this.users.findById(user.id);
    if (!row) throw ApiError.notFound();
    return toUserView(row);
  }

  /**
   * The data goes first: the users row takes every table that references it
   * (jobs, runs, usage, keys, ...) with it, by ON DELETE CASCADE. Should the
   * provider call then fail, what is left is a login to an empty account that
   * can delete itself again, never data nobody can reach to delete.
   */
  async delete(user: AuthenticatedUser, accessToken: string): Promise<void> {
    // A paid subscription ends first: should Stripe be unreachable, the account stays (and can be deleted again) rather than being billed with no owner.
    await this.billing.endForDeletedAccount(user.id);
    await this.users.delete(user.id);
    await this.provider.deleteUser(user, accessToken);
    this.logger.log({ userId: user.id }, 'Account deleted');
  }
}
