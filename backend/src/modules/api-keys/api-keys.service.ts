import { Injectable } from '@nestjs/common';
import { API_KEY_MESSAGES, type ApiKeySummary, type GeneratedApiKey, MAX_API_KEYS_PER_USER } from '@cronbeam/shared/jobs/api-key-types';
import type { Actor } from '../audit';
import { ApiError } from '../../common/http/api-error';
import { isUuid } from '../../common/validation/uuid';
import type { Queryable } from '../../common/database/transaction';
import { roleAtLeast } from '@cronbeam/shared/accounts/roles';
import type { AuthenticatedUser } from '../auth';
import { generateApiKeySecret, hashApiKeySecret, looksLikeApiKey, visiblePrefix } from './api-key-secret';
import type { ApiKeyEntity } from './api-key.entity';
import { ApiKeysRepository, type DeletedKey } from './api-keys.repository';

/** last_used_at is written at most this often per key, so busy keys do not write on every call. */
const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * How long a key found by its secret is reused without reading `api_keys`
 * again. Deleting a key on this instance drops it at once; on another
 * instance it keeps working for at most this long (docs/adr/0110-api-throughput.md).
 */
export const KEY_CACHE_TTL_MS = 1_000;
const KEY_CACHE_MAX = 10_000;

interface KnownKey {
  keyId: string;
  accountId: string;
  createdBy: string | null;
  lastUsedAt: number | null;
  until: number;
}

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
  /** Keys by secret hash (the secret itself is never kept). */
  private readonly known = new Map<string, KnownKey>();
  /** Bumped by every deletion: a lookup that started before one must not cache what it read. */
  private deletions = 0;

  constructor(private readonly keys: ApiKeysRepository) {}

  /**
   * Creates a key of the account, made by `createdBy`; the answer is the only
   * place the secret ever appears. `user_id` is what /prog's X-User-ID must
   * carry with it: the key's account id (for a personal account, its user's id).
   */
  async generate(actor: Actor, accountId: string, createdBy: string, name: string): Promise<GeneratedApiKey> {
    // A soft cap (two simultaneous requests may pass it together): it bounds what a stolen session can mint.
    if ((await this.keys.countOwned(accountId)) >= MAX_API_KEYS_PER_USER) throw ApiError.forbidden(API_KEY_MESSAGES.tooManyKeys);
    const secret = generateApiKeySecret();
    const key = await this.keys.insert(actor, { accountId, createdBy, name, prefix: visiblePrefix(secret), secretHash: hashApiKeySecret(secret) });
    return { ...toSummary(key), api_key: secret, user_id: accountId, account_id: accountId };
  }

  async list(accountId: string): Promise<ApiKeySummary[]> {
    const keys = await this.keys.listOwned(accountId);
    return keys.map(toSummary);
  }

  /**
   * Deletes one of the account's keys. An editor manages only the keys they
   * made: an admin or the owner any key of the account; another member's key
   * is not found for an editor.
   */
  async remove(actor: Actor, user: Pick<AuthenticatedUser, 'id' | 'accountId' | 'role'>, keyId: string): Promise<void> {
    const madeBy = user.role !== null && roleAtLeast(user.role, 'admin') ? null : user.id;
    this.forget((key) => key.keyId === keyId);
    const deleted = isUuid(keyId) && (await this.keys.deleteOwned(actor, user.accountId, keyId, madeBy));
    this.forget((key) => key.keyId === keyId);
    if (!deleted) throw ApiError.notFound('API key not found');
  }

  /**
   * Deletes every key the member made in the account, in the transaction that
   * removes them from it (whose audit entry names the keys answered here).
   */
  async deleteMadeBy(accountId: string, userId: string, tx: Queryable): Promise<DeletedKey[]> {
    const made = (key: KnownKey) => key.accountId === accountId && key.createdBy === userId;
    this.forget(made);
    const deleted = await this.keys.deleteMadeBy(accountId, userId, tx);
    this.forget(made);
    return deleted;
  }

  private forget(which: (key: KnownKey) => boolean): void {
    this.deletions++;
    for (const [hash, key] of this.known) if (which(key)) this.known.delete(hash);
  }

  /** Whether this instance found the secret to be a valid key within KEY_CACHE_TTL_MS (no database read). */
  isRecentlyValid(secret: string): boolean {
    if (!looksLikeApiKey(secret)) return false;
    const known = this.known.get(hashApiKeySecret(secret));
    return known !== undefined && known.until > Date.now();
  }

  /** The key's id, its account and the member who made it, or null for an unknown or malformed secret. */
  async authenticate(secret: string): Promise<{ keyId: string; accountId: string; createdBy: string | null } | null> {
    if (!looksLikeApiKey(secret)) return null;
    const hash = hashApiKeySecret(secret);
    const now = Date.now();
    let known = this.known.get(hash);
    if (!known || known.until <= now) {
      const deletionsBefore = this.deletions;
      const key = await this.keys.findBySecretHash(hash);
      if (!key) {
        this.known.delete(hash);
        return null;
      }
      known = { keyId: key.id, accountId: key.accountId, createdBy: key.createdBy, lastUsedAt: key.lastUsedAt?.getTime() ?? null, until: now + KEY_CACHE_TTL_MS };
      if (deletionsBefore === this.deletions) {
        if (this.known.size >= KEY_CACHE_MAX) this.known.clear();
        this.known.set(hash, known);
      }
    }
    if (known.lastUsedAt === null || now - known.lastUsedAt >= LAST_USED_RESOLUTION_MS) {
      known.lastUsedAt = now;
      await this.keys.setLastUsed(known.keyId, new Date(now));
    }
    return { keyId: known.keyId, accountId: known.accountId, createdBy: known.createdBy };
  }
}
