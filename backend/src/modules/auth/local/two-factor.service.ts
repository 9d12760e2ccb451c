import { randomInt } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AUTH_MESSAGES } from '@cronbeam/shared/auth/auth-messages';
import {
  RECOVERY_CODE_COUNT,
  RECOVERY_CODE_LENGTH,
  type SecondFactorProof,
  type TotpSetupResponse,
  type TwoFactorStatus,
} from '@cronbeam/shared/auth/mfa-schemas';
import type { Alongside } from '../../../common/database/transaction';
import { ApiError } from '../../../common/http/api-error';
import { AccountSecurityRepository } from './account-security.repository';
import { RecoveryCodesRepository } from './recovery-codes.repository';
import { RememberedDevicesRepository } from './remembered-devices.repository';
import { sha256 } from '../../../common/crypto/secret-hash';
import { newTotpSecret, totpUri, verifyTotp } from './totp';

/** Letters and digits that cannot be misread for one another (no 0/o, 1/l/i). */
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i++) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

/** Codes are compared in their normalised form (the request schema strips dashes and spaces and lowers the case). */
function recoveryCodeHash(userId: string, normalisedCode: string): string {
  return sha256(userId, 'recovery', normalisedCode);
}

/** A fresh set of recovery codes as the user is shown them, and their hashes as stored. */
function newRecoveryCodes(userId: string): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map((c) => recoveryCodeHash(userId, c.replace('-', ''))) };
}

/**
 * The local provider's second factor: an authenticator app (TOTP) plus ten
 * single-use recovery codes. Checks throw the API's errors; throttling of
 * wrong codes is AuthService's job.
 */
@Injectable()
export class TwoFactorService {
  constructor(
    @InjectDataSource() private readonly db: DataSource,
    private readonly security: AccountSecurityRepository,
    private readonly recoveryCodes: RecoveryCodesRepository,
    private readonly devices: RememberedDevicesRepository,
  ) {}

  async status(userId: string): Promise<TwoFactorStatus> {
    const row = await this.security.find(userId);
    const enabled = Boolean(row?.totpSecret);
    return {
      totp_enabled: enabled,
      enabled_at: row?.totpEnabledAt?.toISOString() ?? null,
      recovery_codes_left: enabled ? await this.recoveryCodes.countUnused(userId) : 0,
    };
  }

  async isEnabled(userId: string): Promise<boolean> {
    return Boolean((await this.security.find(userId))?.totpSecret);
  }

  async newPasswordRequired(userId: string): Promise<boolean> {
    return Boolean((await this.security.find(userId))?.newPasswordRequired);
  }

  /** A fresh secret for the authenticator app; it takes effect once a code from it is confirmed. */
  async setUp(userId: string, email: string): Promise<TotpSetupResponse> {
    if (await this.isEnabled(userId)) throw ApiError.conflict(AUTH_MESSAGES.twoFactorAlreadyEnabled);
    const secret = newTotpSecret();
    await this.security.setPendingSecret(userId, secret);
    return { secret, otpauth_uri: totpUri(secret, email) };
  }

  /**
   * Turns the second factor on with a code from the app; answers the
   * recovery codes (shown once, stored hashed). The secret, the codes and
   * `alongside` are one transaction: never a second factor without its codes.
   */
  async enable(userId: string, code: string, alongside: Alongside): Promise<string[]> {
    const row = await this.security.find(userId);
    if (row?.totpSecret) throw ApiError.conflict(AUTH_MESSAGES.twoFactorAlreadyEnabled);
    if (!row?.pendingTotpSecret) throw ApiError.badRequest(AUTH_MESSAGES.softwareTokenNotSetUp);
    const step = verifyTotp(row.pendingTotpSecret, code, null);
    if (step === null) throw ApiError.badRequest(AUTH_MESSAGES.codeMismatch);
    const { codes, hashes } = newRecoveryCodes(userId);
    await this.db.transaction(async (tx) => {
      if (!(await this.security.enable(userId, row.pendingTotpSecretAsStored!, step, tx))) throw ApiError.conflict(AUTH_MESSAGES.twoFactorAlreadyEnabled);
      await this.recoveryCodes.replaceAll(userId, hashes, tx);
      await alongside(tx);
    });
    return codes;
  }

  /**
   * Turns it off (with a code or a recovery code); recovery codes and
   * remembered devices go with it, in one transaction with `alongside`. The
   * proof is used up before, whatever follows: it was shown.
   */
  async disable(userId: string, proof: SecondFactorProof, alongside: Alongside): Promise<void> {
    await this.verify(userId, proof);
    await this.db.transaction(async (tx) => {
      await this.security.disable(userId, tx);
      await this.recoveryCodes.deleteAll(userId, tx);
      await this.devices.deleteAll(userId, tx);
      await alongside(tx);
    });
  }

  /** A new set of recovery codes replacing every old one, in one transaction with `alongside`. */
  async regenerateRecoveryCodes(userId: string, proof: SecondFactorProof, alongside: Alongside): Promise<string[]> {
    await this.verify(userId, proof);
    const { codes, hashes } = newRecoveryCodes(userId);
    await this.db.transaction(async (tx) => {
      await this.recoveryCodes.replaceAll(userId, hashes, tx);
      await alongside(tx);
    });
    return codes;
  }

  /**
   * Checks a second factor and uses it up: an authenticator code is refused
   * for its time step (and older ones) afterwards, a recovery code for good.
   */
  async verify(userId: string, proof: SecondFactorProof): Promise<void> {
    const row = await this.security.find(userId);
    if (!row?.totpSecret) throw ApiError.badRequest(AUTH_MESSAGES.twoFactorNotEnabled);
    if (proof.code) {
      const step = verifyTotp(row.totpSecret, proof.code, row.totpLastTimeStep);
      if (step === null || !(await this.security.claimTimeStep(userId, step))) throw ApiError.badRequest(AUTH_MESSAGES.codeMismatch);
      return;
    }
    if (!proof.recovery_code || !(await this.recoveryCodes.consume(userId, recoveryCodeHash(userId, proof.recovery_code)))) {
      throw ApiError.badRequest(AUTH_MESSAGES.recoveryCodeMismatch);
    }
  }
}
