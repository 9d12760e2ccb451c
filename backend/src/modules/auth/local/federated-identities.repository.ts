import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { Queryable } from '../../../common/database/transaction';
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

  /** On `tx`: the link is made in the transaction that makes its account. */
  async insert(provider: string, subject: string, userId: string, tx: Queryable): Promise<void> {
    await tx.query(`INSERT INTO federated_identities (provider, subject, user_id) VALUES ($1, $2, $3)`, [provider, subject, userId]);
  }
}
