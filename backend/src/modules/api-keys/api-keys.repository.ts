import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ApiKeyEntity } from './api-key.entity';

/** Every SQL statement on `api_keys` (secret hashes only), one per function; a user's keys are scoped by user id. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  countOwned(userId: string): Promise<number> {
    return this.keys.countBy({ userId });
  }

  insert(row: Pick<ApiKeyEntity, 'userId' | 'name' | 'prefix' | 'secretHash'>): Promise<ApiKeyEntity> {
    return this.keys.save(this.keys.create(row));
  }

  /** Oldest first. */
  listOwned(userId: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** False when the user has no such key. */
  async deleteOwned(userId: string, keyId: string): Promise<boolean> {
    const result = await this.keys.delete({ id: keyId, userId });
    return Boolean(result.affected);
  }

  findBySecretHash(secretHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ secretHash });
  }

  async setLastUsed(keyId: string, at: Date): Promise<void> {
    await this.keys.update({ id: keyId }, { lastUsedAt: at });
  }
}
