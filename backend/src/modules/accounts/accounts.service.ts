import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiError } from '../../common/http/api-error';
import { IDENTITY_PROVIDER, toUserView, type AuthenticatedUser, type IdentityProvider } from '../auth';
import { UsersService } from '../auth/users.service';
import type { Actor } from '../audit';
import { BillingService } from '../billing/billing.service';
import { MembershipService } from '../teams/membership.service';
import { TeamsService } from '../teams/teams.service';
import type { UserView } from '@cronbeam/shared/auth/user-view';


/** The account as a whole: deleting it removes the identity and everything the user owns. */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    @Inject(IDENTITY_PROVIDER) private readonly provider: IdentityProvider,
    private readonly users: UsersService,
    private readonly billing: BillingService,
    private readonly teams: TeamsService,
    private readonly membership: MembershipService,
  ) {}

  async show(user: AuthenticatedUser): Promise<UserView> {
    const row = await this.users.findById(user.id);
    if (!row) throw ApiError.notFound();
    return toUserView(row, await this.teams.planOf(user.id));
  }

  /**
   * The data goes first: the accounts the user owns go with everything they
   * hold (jobs, runs, usage, keys, ...: ON DELETE CASCADE), then the users row
   * with the identity. Refused (409) while an account they own has other
   * members. Should the provider call then fail, what is left is a login with
   * no data that can delete itself again, never data nobody can reach to delete.
   */
  async delete(user: AuthenticatedUser, accessToken: string): Promise<void> {
    await this.teams.assertDeletable(user.id);
    // Paid subscriptions end first: should Stripe be unreachable, the accounts stay (and can be deleted again) rather than being billed with no owner.
    for (const accountId of await this.teams.ownedAlone(user.id)) await this.billing.endForDeletedAccount(accountId);
    await this.teams.deleteOwnedBy(user.id);
    await this.users.delete(user.id);
    await this.provider.deleteUser(user, accessToken);
    this.logger.log({ userId: user.id }, 'Account deleted');
  }

  /**
   * Deletes a team account (its owner asks) with everything it holds. Its paid
   * subscription ends first, as for a user's accounts: should Stripe refuse or
   * be unreachable (503), the account stays and can be deleted again.
   */
  async deleteTeam(actor: Actor, user: AuthenticatedUser): Promise<void> {
    this.membership.assertTeamAccount(user);
    await this.billing.endForDeletedAccount(user.accountId);
    await this.membership.delete(actor, user);
  }
}
