import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { FederatedIdentityEntity } from './federated-identity.entity';

/** Every SQL statement on `federated_identities` (social identities linked to accounts), one per function. */
@Injectable()
export class FederatedIdentitiesRepository {
  constructor(@InjectRepository(FederatedIdentityEntity) private readonly links: Repository<FederatedIdentityEntity>) {}

  /** The id of the account linked to the provider's subject, or null. */
  async linkedUserId(provider: string, subject: string): Promise<string | null> {
    const link = await this.links.findOneBy({ provider, subject });
    return link?.userId ?? null;
  }

  async insert(provider: string, subject: string, userId: string): Promise<void> {
    await this.links.insert({ provider, subject, userId });
  }
}
