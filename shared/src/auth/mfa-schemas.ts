import { z } from 'zod';
import { AUTH_FIELD_MESSAGES as M } from './auth-messages';
import { newPasswordSchema, type TokenResponse } from './auth-schemas';

/** Codes of an authenticator app (RFC 6238 defaults: SHA-1, 6 digits, 30-second steps). */
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** How many single-use recovery codes a user gets each time they are (re)generated. */
export const RECOVERY_CODE_COUNT = 10;
/** Recovery codes are shown as `xxxxx-xxxxx`; dashes, spaces and case do not matter when typed back. */
export const RECOVERY_CODE_LENGTH = 10;

/**
 * The challenges a sign-in may answer instead of tokens (the managed identity
 * service's names). The local provider issues SOFTWARE_TOKEN_MFA and
 * NEW_PASSWORD_REQUIRED; a Cognito pool may also ask for MFA_SETUP.
 */
export const CHALLENGE_NAMES = ['SOFTWARE_TOKEN_MFA', 'NEW_PASSWORD_REQUIRED', 'MFA_SETUP'] as const;
export type ChallengeName = (typeof CHALLENGE_NAMES)[number];

/** What the password step (or a challenge answer) returns when another step is needed. */
export interface ChallengeResponse {
  challenge: ChallengeName;
  /** Opaque, single use, valid for a few minutes; sent back with the answer. */
  session: string;
  /** MFA_SETUP only: the secret and otpauth URI to put in an authenticator app. */
  secret?: string;
  otpauth_uri?: string;
  /** The account's email, when the client did not type it (a social sign-in); challenge answers name it. */
  username?: string;
}

/** The answer of POST /api/auth/login and POST /api/auth/challenge. */
export type SignInResponse = TokenResponse | ChallengeResponse;

export function isChallenge(response: SignInResponse): response is ChallengeResponse {
  return 'challenge' in response;
}

export const totpCodeSchema = z
  .string({ message: M.totpCodeInvalid })
  .trim()
  .regex(new RegExp(`^\\d{${TOTP_DIGITS}}$`), M.totpCodeInvalid);

/** Normalises what a user typed (dashes, spaces, case) before checking the shape. */
export const recoveryCodeSchema = z
  .string({ message: M.recoveryCodeInvalid })
  .max(64, M.recoveryCodeInvalid)
  .transform((v) => v.replace(/[\s-]/g, '').toLowerCase())
  .pipe(z.string().regex(new RegExp(`^[a-z0-9]{${RECOVERY_CODE_LENGTH}}$`), M.recoveryCodeInvalid));

/** The answer to a sign-in challenge (RespondToAuthChallenge in spirit). */
export const respondToChallengeSchema = z
  .object({
    email: z.string({ message: M.emailRequired }).trim().min(1, M.emailRequired).max(254, M.emailInvalid),
    challenge: z.enum(CHALLENGE_NAMES, { message: M.challengeInvalid }),
    session: z.string({ message: M.sessionRequired }).min(1, M.sessionRequired).max(4096, M.sessionRequired),
    code: totpCodeSchema.optional(),
    recovery_code: recoveryCodeSchema.optional(),
    new_password: z.string().optional(),
    remember_device: z.boolean({ message: 'remember_device is true or false' }).optional(),
    device_name: z.string().trim().max(100, M.deviceNameTooLong).optional(),
  })
  .superRefine((body, ctx) => {
    if ((body.challenge === 'SOFTWARE_TOKEN_MFA' || body.challenge === 'MFA_SETUP') && !body.code && !body.recovery_code) {
      ctx.addIssue({ code: 'custom', path: ['code'], message: M.codeOrRecoveryCodeRequired });
    }
    if (body.challenge === 'MFA_SETUP' && body.recovery_code) {
      ctx.addIssue({ code: 'custom', path: ['recovery_code'], message: M.totpCodeInvalid });
    }
    if (body.challenge === 'NEW_PASSWORD_REQUIRED') {
      const checked = newPasswordSchema.safeParse(body.new_password ?? '');
      if (!checked.success) ctx.addIssue({ code: 'custom', path: ['new_password'], message: checked.error.issues[0].message });
    }
  });
export type RespondToChallengeRequest = z.infer<typeof respondToChallengeSchema>;

/** Turning the authenticator on: a code proves the app holds the secret. */
export const enableTotpSchema = z.object({ code: totpCodeSchema });
export type EnableTotpRequest = z.infer<typeof enableTotpSchema>;

/** Turning two-factor off or regenerating recovery codes: a current code or an unused recovery code. */
export const secondFactorProofSchema = z
  .object({ code: totpCodeSchema.optional(), recovery_code: recoveryCodeSchema.optional() })
  .refine((body) => body.code || body.recovery_code, { path: ['code'], message: M.codeOrRecoveryCodeRequired });
export type SecondFactorProof = z.infer<typeof secondFactorProofSchema>;

/**
 * Confirming it is still the account's owner before a sensitive operation:
 * the current password, and a code (or recovery code) when two-factor is on.
 */
export const reauthenticateSchema = z.object({
  password: z.string({ message: M.passwordRequired }).min(1, M.passwordRequired).max(1024, M.passwordRequired),
  code: totpCodeSchema.optional(),
  recovery_code: recoveryCodeSchema.optional(),
  /** The refresh token of the session being replaced: its family ends once the new session is issued. */
  refresh_token: z.string().min(1).max(4096).optional(),
});
export type ReauthenticateRequest = z.infer<typeof reauthenticateSchema>;

export const updateProfileSchema = z.object({
  name: z.string({ message: M.nameRequired }).trim().min(1, M.nameRequired).max(200, 'Full name is too long'),
});
export type UpdateProfileRequest = z.infer<typeof updateProfileSchema>;

/** GET /api/auth/mfa */
export interface TwoFactorStatus {
  totp_enabled: boolean;
  enabled_at: string | null;
  recovery_codes_left: number;
}

/** POST /api/auth/mfa/totp/setup: what the authenticator app needs (the web draws the URI as a QR code). */
export interface TotpSetupResponse {
  secret: string;
  otpauth_uri: string;
}

export interface RecoveryCodesResponse {
  recovery_codes: string[];
}

/** A remembered device as GET /api/auth/devices lists it. */
export interface RememberedDeviceView {
  device_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string;
}
