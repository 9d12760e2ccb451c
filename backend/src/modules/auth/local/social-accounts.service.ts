import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AUTH_MESSAGES } from '@shared/auth/auth-messages';
import { ApiError } from '../../../common/http/api-error';
import type { SocialIdentity } from '../identity-provider';
import type { UserEntity } from '../user.entity';
import { UsersService } from '../users.service';
import { FederatedIdentityEntity } from './federated-identity.entity';

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
    @InjectRepository(FederatedIdentityEntity) private readonly links: Repository<FederatedIdentityEntity>,
  ) {}

  async findOrCreate(identity: SocialIdentity): Promise<UserEntity> {
    const link = await this.links.findOneBy({ provider: identity.provider, subject: identity.subject });
    if (link) {
      const linked = await this.users.findById(link.userId);
      if (linked) return linked;
    }
    const created = await this.users.create({ email: identity.email, name: identity.name, passwordHash: null, emailVerified: true });
    if (!created) {
      throw ApiError.conflict(
        identity.intent === 'signup' ? AUTH_MESSAGES.emailAlreadyRegistered : AUTH_MESSAGES.socialLoginUsePassword,
      );
    }
    await this.links.insert({ provider: identity.provider, subject: identity.subject, userId: created.id });
    this.logger.log({ userId: created.id, provider: identity.provider }, 'Account created by social sign-in');
    return created;
  }
}
