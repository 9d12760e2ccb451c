import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { returnedRows } from '../../common/database/query-rows';
import { auditChanges, auditedStatement, type Actor } from '../audit';
import type { Queryable } from '../../common/database/transaction';
import { ApiKeyEntity } from './api-key.entity';

/** A key as its audit entries show it: its name and visible prefix, never the secret or its hash. */
const auditView = (row: string) => `jsonb_build_object('name', ${row}.name, 'prefix', ${row}.prefix)`;

/** A key deleted with the member who made it, as the removal's audit entry names it (never the secret or its hash). */
export interface DeletedKey {
  id: string;
  name: string;
  prefix: string;
}

interface ApiKeyRow {
  id: string;
  account_id: string;
  created_by: string | null;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** Every SQL statement on `api_keys` (secret hashes only), one per function; an account's keys are scoped by account id. */
@Injectable()
export class ApiKeysRepository {
  constructor(@InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>) {}

  countOwned(accountId: string): Promise<number> {
    return this.keys.countBy({ accountId });
  }

  /** Inserts the key with the audit entry of its creation (name and prefix only). */
  async insert(actor: Actor, row: Pick<ApiKeyEntity, 'accountId' | 'createdBy' | 'name' | 'prefix' | 'secretHash'>): Promise<ApiKeyEntity> {
    const [key] = returnedRows<ApiKeyRow>(
      await this.keys.query(
        ...auditedStatement(actor, {
          ctes: `c AS (INSERT INTO api_keys (account_id, created_by, name, prefix, secret_hash) VALUES ($1, $2, $3, $4, $5) RETURNING id, account_id, created_by, name, prefix, created_at, last_used_at)`,
          params: [row.accountId, row.createdBy, row.name, row.prefix, row.secretHash],
          from: 'c',
          action: 'api_key.created',
          targetType: 'api_key',
          targetId: 'c.id',
          changes: auditChanges('NULL', auditView('c'), []),
          result: 'SELECT * FROM c',
        }),
      ),
    );
    return { id: key!.id, accountId: key!.account_id, createdBy: key!.created_by, name: key!.name, prefix: key!.prefix, secretHash: row.secretHash, createdAt: new Date(key!.created_at), lastUsedAt: key!.last_used_at };
  }

  /** Oldest first. */
  listOwned(accountId: string): Promise<ApiKeyEntity[]> {
    return this.keys.find({ where: { accountId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /**
   * Deletes the key with the audit entry of its deletion; false when the
   * account has no such key, or (`madeBy` set) none that member made.
   */
  async deleteOwned(actor: Actor, accountId: string, keyId: string, madeBy: string | null): Promise<boolean> {
    const rows: unknown[] = await this.keys.query(
      ...auditedStatement(actor, {
        ctes: `c AS (DELETE FROM api_keys WHERE id = $1 AND account_id = $2 AND ($3::uuid IS NULL OR created_by = $3::uuid) RETURNING id, name, prefix)`,
        params: [keyId, accountId, madeBy],
        from: 'c',
        action: 'api_key.deleted',
        targetType: 'api_key',
        targetId: 'c.id',
        changes: auditChanges(auditView('c'), 'NULL', []),
        result: 'SELECT id FROM c',
      }),
    );
    return rows.length > 0;
  }

  /**
   * Deletes every key `userId` made in the account (a member removed from the
   * account takes their keys with them), inside the removal's transaction,
   * passed as `tx`; answers the deleted keys by id, name and prefix, which the
   * removal's single audit entry names.
   */
  async deleteMadeBy(accountId: string, userId: string, tx: Queryable): Promise<DeletedKey[]> {
    const result = await tx.query(`DELETE FROM api_keys WHERE account_id = $1 AND created_by = $2 RETURNING id, name, prefix`, [accountId, userId]);
    return returnedRows<DeletedKey>(result).sort((x, y) => x.id.localeCompare(y.id));
  }

  findBySecretHash(secretHash: string): Promise<ApiKeyEntity | null> {
    return this.keys.findOneBy({ secretHash });
  }

  async setLastUsed(keyId: string, at: Date): Promise<void> {
    await this.keys.update({ id: keyId }, { lastUsedAt: at });
  }
}
