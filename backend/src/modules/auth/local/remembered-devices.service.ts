import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import type { RememberedDeviceView } from '@cronbeam/shared/auth/mfa-schemas';
import type { Alongside } from '../../../common/database/transaction';
import { ApiError } from '../../../common/http/api-error';
import { isUuid } from '../../../common/validation/uuid';
import { AppConfig } from '../../../config/app-config';
import { RememberedDevicesRepository } from './remembered-devices.repository';
import { newOpaqueSecret, sha256 } from '../../../common/crypto/secret-hash';

/**
 * Devices that skip the second factor for AUTH_REMEMBERED_DEVICE_DAYS. The
 * client keeps the device key; the server keeps only its hash, so a leaked
 * table lets nobody in.
 */
@Injectable()
export class RememberedDevicesService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly devices: RememberedDevicesRepository,
  ) {}

  /** Answers the key the client keeps (shown nowhere else, never stored in clear). */
  async remember(userId: string, name: string | undefined): Promise<string> {
    const key = newOpaqueSecret();
    await this.devices.insert(userId, sha256('device', key), name?.trim() || 'Unnamed device', this.config.env.AUTH_REMEMBERED_DEVICE_DAYS);
    return key;
  }

  /** True when the key is a live remembered device of this user (and records its use). */
  recognise(userId: string, deviceKey: string): Promise<boolean> {
    return this.devices.touch(userId, sha256('device', deviceKey));
  }

  async list(userId: string): Promise<RememberedDeviceView[]> {
    return (await this.devices.list(userId)).map((d) => ({
      device_id: d.id,
      name: d.name,
      created_at: d.createdAt.toISOString(),
      last_used_at: d.lastUsedAt?.toISOString() ?? null,
      expires_at: d.expiresAt.toISOString(),
    }));
  }

  /** Forgets one of the user's devices, in one transaction with `alongside` (404 when the user has no such device: nothing runs). */
  async forget(userId: string, deviceId: string, alongside: Alongside): Promise<void> {
    if (!isUuid(deviceId)) throw ApiError.notFound(AUTH_MESSAGES.deviceNotFound);
    await this.db.transaction(async (tx) => {
      if (!(await this.devices.delete(userId, deviceId, tx))) throw ApiError.notFound(AUTH_MESSAGES.deviceNotFound);
      await alongside(tx);
    });
  }
}
