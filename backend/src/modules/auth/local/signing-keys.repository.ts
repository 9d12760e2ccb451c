import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { IsNull, MoreThan, type Repository } from 'typeorm';
import { resealColumn, type ResealOutcome, type SealedColumn } from '../../../common/crypto/reseal-sweep';
import type { SecretBox } from '../../../common/crypto/secret-box';
import { SigningKeyEntity } from './signing-key.entity';

/** The private halves are sealed at rest, each bound to its key id; the public halves stay clear (they are published anyway). */
export const PRIVATE_KEY_COLUMN: SealedColumn = { table: 'signing_keys', column: 'private_key_pem', id: 'kid', idType: 'text', place: (kid) => `signing_keys.private_key_pem:${kid}` };

/** Every SQL statement on `signing_keys`, one per function. */
@Injectable()
export class SigningKeysRepository {
  constructor(@InjectRepository(SigningKeyEntity) private readonly keys: Repository<SigningKeyEntity>) {}

  /** Keys not retired, or retired after `retiredAfter`, newest first. */
  listVerifying(retiredAfter: Date): Promise<SigningKeyEntity[]> {
    return this.keys.find({ where: [{ retiredAt: IsNull() }, { retiredAt: MoreThan(retiredAfter) }], order: { createdAt: 'DESC' } });
  }

  newestActive(): Promise<SigningKeyEntity | null> {
    return this.keys.findOne({ where: { retiredAt: IsNull() }, order: { createdAt: 'DESC' } });
  }

  insert(row: Pick<SigningKeyEntity, 'kid' | 'privateKeyPem' | 'publicJwk'>): Promise<SigningKeyEntity> {
    return this.keys.save(this.keys.create({ ...row, retiredAt: null }));
  }

  /** Retires every other active key created no later than `key` (also ones a concurrent instance made): newest wins. */
  async retireOthers(key: Pick<SigningKeyEntity, 'kid' | 'createdAt'>): Promise<void> {
    await this.keys.query(`UPDATE signing_keys SET retired_at = now() WHERE retired_at IS NULL AND kid <> $1 AND created_at <= $2`, [key.kid, key.createdAt]);
  }

  /** Brings the sealed private halves to the current master key (the reseal sweep's pass over this table). */
  reseal(box: SecretBox, stopping: () => boolean): Promise<ResealOutcome> {
    return resealColumn(this.keys, box, PRIVATE_KEY_COLUMN, stopping);
  }
}
