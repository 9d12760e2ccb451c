import { Injectable, Logger } from '@nestjs/common';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';
import type { RecordChange, SocialIdentity } from '../identity-provider';
import type { UserEntity } from '../user.entity';
import { UsersService } from '../users.service';
import { FederatedIdentitiesRepository } from './federated-identities.repository';

/**
 * Maps social identities to local accounts: the first sign-in creates the
 * account and links it, later ones find it by the link. An email that
 * already belongs to an account is not taken over (whoever controls a social
 * identity must not gain a password account): that person is sent to the
 * password sign-in instead.
 */
@Injectable()
export class SocialAccountsService {
  private readonly logger = new Logger(SocialAccountsService.name);

  constructor(
    private readonly users: UsersService,
    private readonly links: FederatedIdentitiesRepository,
  ) {}

  /** The account linked to the identity; a new one, linked, when there is none, made in one transaction with `recordSignUp`'s entry. */
  async findOrCreate(identity: SocialIdentity, recordSignUp: RecordChange): Promise<UserEntity> {
    const linkedUserId = await this.links.linkedUserId(identity.provider, identity.subject);
    if (linkedUserId) {
      const linked = await this.users.findById(linkedUserId);
      if (linked) return linked;
    }
    const created = await this.users.create({ email: identity.email, name: identity.name, passwordHash: null, emailVerified: true }, async (tx, userId) => {
      await this.links.insert(identity.provider, identity.subject, userId, tx);
      await recordSignUp(userId, tx);
    });
    if (!created) {
      throw ApiError.conflict(
        identity.intent === 'signup' ? AUTH_MESSAGES.emailAlreadyRegistered : AUTH_MESSAGES.socialLoginUsePassword,
      );
    }
    this.logger.log({ userId: created.id, provider: identity.provider }, 'Account created by social sign-in');
    return created;
  }
}
