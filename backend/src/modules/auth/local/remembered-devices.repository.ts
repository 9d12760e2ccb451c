import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { Queryable } from '../../../common/database/transaction';

export interface RememberedDeviceRow {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date;
}

interface RawRow {
  id: string;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
  expires_at: Date;
}

const toRow = (r: RawRow): RememberedDeviceRow => ({
  id: r.id,
  name: r.name,
  createdAt: new Date(r.created_at),
  lastUsedAt: r.last_used_at ? new Date(r.last_used_at) : null,
  expiresAt: new Date(r.expires_at),
});

/** All SQL of the `remembered_devices` table. Only a hash of each device key is kept; every query is scoped by user. */
@Injectable()
export class RememberedDevicesRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  async insert(userId: string, keyHash: string, name: string, days: number): Promise<void> {
    await this.db.query(
      `INSERT INTO remembered_devices (user_id, key_hash, name, expires_at) VALUES ($1, $2, $3, now() + make_interval(days => $4))`,
      [userId, keyHash, name, days],
    );
  }

  /** Marks the device used when it belongs to the user and has not expired; false otherwise. */
  async touch(userId: string, keyHash: string): Promise<boolean> {
    const [rows]: [unknown[]] = await this.db.query(
      `UPDATE remembered_devices SET last_used_at = now() WHERE user_id = $1 AND key_hash = $2 AND expires_at > now() RETURNING id`,
      [userId, keyHash],
    );
    return rows.length === 1;
  }

  async list(userId: string): Promise<RememberedDeviceRow[]> {
    const rows: RawRow[] = await this.db.query(
      `SELECT id, name, created_at, last_used_at, expires_at FROM remembered_devices
        WHERE user_id = $1 AND expires_at > now() ORDER BY created_at DESC`,
      [userId],
    );
    return rows.map(toRow);
  }

  /** False when the user has no such device (another user's id is "no such device"). */
  async delete(userId: string, deviceId: string, tx: Queryable = this.db): Promise<boolean> {
    const [rows]: [unknown[]] = await tx.query(`DELETE FROM remembered_devices WHERE user_id = $1 AND id = $2 RETURNING id`, [userId, deviceId]);
    return rows.length === 1;
  }

  async deleteAll(userId: string, tx: Queryable = this.db): Promise<void> {
    await tx.query(`DELETE FROM remembered_devices WHERE user_id = $1`, [userId]);
  }
}
