import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { API_KEY_MESSAGES, type ApiKeySummary, type GeneratedApiKey, MAX_API_KEYS_PER_USER } from '@shared/jobs/api-key-types';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import { generateApiKeySecret, hashApiKeySecret, looksLikeApiKey, visiblePrefix } from './api-key-secret';
import { ApiKeyEntity } from './api-key.entity';

/** last_used_at is written at most this often per key, so busy keys do not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

function toSummary(key: ApiKeyEntity): ApiKeySummary {
  return {
    key_id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt ? key.lastUsedAt.toISOString() : null,
  };
}

@Injectable()
export class ApiKeysService {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  /** Creates a key; the answer is the only place the secret ever appears. */
  async generate(userId: string, name: string): Promise<GeneratedApiKey> {
    // A soft cap (two simultaneous requests may pass it together): it bounds what a stolen session can mint.
    if ((await this.keys.countBy({ userId })) >= MAX_API_KEYS_PER_USER) throw ApiError.forbidden(API_KEY_MESSAGES.tooManyKeys);
    const secret = generateApiKeySecret();
    const key = await this.keys.save(
      this.keys.create({ userId, name, prefix: visiblePrefix(secret), secretHash: hashApiKeySecret(secret) }),
    );
    return { ...toSummary(key), api_key: secret, user_id: userId };
  }

  async list(userId: string): Promise<ApiKeySummary[]> {
    const keys = await this.keys.find({ where: { userId }, order: { createdAt: 'ASC', id: 'ASC' } });
    return keys.map(toSummary);
  }

  async remove(userId: string, keyId: string): Promise<void> {
    const result = isUuid(keyId) ? await this.keys.delete({ id: keyId, userId }) : { affected: 0 };
    if (!result.affected) throw ApiError.notFound('API key not found');
  }

  /** The key's owner and id, or null for an unknown or malformed secret. */
  async authenticate(secret: string): Promise<{ keyId: string; userId: string } | null> {
    if (!looksLikeApiKey(secret)) return null;
    const key = await this.keys.findOneBy({ secretHash: hashApiKeySecret(secret) });
    if (!key) return null;
    const now = Date.now();
    if (!key.lastUsedAt || now - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      await this.keys.update({ id: key.id }, { lastUsedAt: new Date(now) });
    }
    return { keyId: key.id, userId: key.userId };
  }
}
