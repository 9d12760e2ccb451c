import { Secret, TOTP } from 'otpauth';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@cronbeam/shared/auth/mfa-schemas';

/** The parameters every authenticator app understands (SHA-1, 6 digits, 30 s), spelled out so a library default change cannot alter them. */
function totpFor(secret: string, accountName = ''): TOTP {
  return new TOTP({
    issuer: 'Cronbeam',
    label: accountName,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** 160 random bits, base32 (the size RFC 4226 recommends for SHA-1). */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

/** The `otpauth://totp/...` URI an authenticator app scans. */
export function totpUri(secret: string, accountName: string): string {
  return totpFor(secret, accountName).toString();
}

/**
 * The time step the code belongs to, or null when it is wrong. One step
 * either side is accepted for clock drift; steps at or before `afterTimeStep`
 * (already used) are refused, so a code works once.
 */
export function verifyTotp(secret: string, code: string, afterTimeStep: number | null): number | null {
  const timestamp = Date.now();
  const delta = totpFor(secret).validate({ token: code, timestamp, window: 1 });
  if (delta === null) return null;
  const step = TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp }) + delta;
  return afterTimeStep !== null && step <= afterTimeStep ? null : step;
}
