import { Inject, Injectable, Logger } from '@nestjs/common';
import type { PlanId } from '@shared/plans';
import { ApiError } from '../../common/http/api-error';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { IDENTITY_PROVIDER, type IdentityProvider } from '../auth/identity-provider';
import { UsersService } from '../auth/users.service';

/** What GET /api/account answers. */
export interface AccountView {
  user_id: string;
  email: string;
  name: string;
  plan: PlanId;
  email_verified: boolean;
  created_at: string;
}

/** The account as a whole: deleting it removes the identity and everything the user owns. */
@Injectable()
export class AccountsService {
  private readonly logger = new Logger(AccountsService.name);

  constructor(
    @Inject(IDENTITY_PROVIDER) private readonly provider: IdentityProvider,
    private readonly users: UsersService,
  ) {}

  async show(user: AuthenticatedUser): Promise<AccountView> {
    const row = await this.users.findById(user.id);
    if (!row) throw ApiError.notFound();
    return {
      user_id: row.id,
      email: row.email,
      name: row.name,
      plan: row.plan,
      email_verified: row.emailVerified,
      created_at: row.createdAt.toISOString(),
    };
  }

  /**
   * The data goes first: the users row takes every table that references it
   * (jobs, runs, usage, keys, ...) with it, by ON DELETE CASCADE. Should the
   * provider call then fail, what is left is a login to an empty account that
   * can delete itself again, never data nobody can reach to delete.
   */
  async delete(user: AuthenticatedUser, accessToken: string): Promise<void> {
    await this.users.delete(user.id);
    await this.provider.deleteUser(user, accessToken);
    this.logger.log({ userId: user.id }, 'Account deleted');
  }
}
