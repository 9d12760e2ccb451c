import { z } from 'zod';
import { AUTH_FIELD_MESSAGES as M } from './auth-messages';

/** Verification and reset codes: six digits, sent by email. */
export const VERIFICATION_CODE_LENGTH = 6;

const email = z
  .string({ message: M.emailRequired })
  .trim()
  .min(1, M.emailRequired)
  .max(254, M.emailInvalid)
  .pipe(z.email({ message: M.emailInvalid }));

/** A password being set: length rules apply. */
const newPassword = (required: string) =>
  z.string({ message: required }).min(1, required).min(8, M.passwordTooShort).max(256, M.passwordTooLong);

/** A password being checked: only presence (old passwords may predate the rules). */
const currentPassword = z.string({ message: M.passwordRequired }).min(1, M.passwordRequired).max(1024, M.passwordRequired);

const code = z
  .string({ message: M.codeInvalid })
  .trim()
  .regex(new RegExp(`^\\d{${VERIFICATION_CODE_LENGTH}}$`), M.codeInvalid);

export const signUpSchema = z.object({
  name: z.string({ message: M.nameRequired }).trim().min(1, M.nameRequired).max(200, 'Full name is too long'),
  email,
  password: newPassword(M.passwordRequired),
});

/** `device_key`: the key of a remembered device (skips the second factor while the server knows it). */
export const loginSchema = z.object({ email, password: currentPassword, device_key: z.string().min(1).max(256).optional() });
export const verifyEmailSchema = z.object({ email, code });
export const emailOnlySchema = z.object({ email });
/** A new password being set (reset, change, the new-password challenge): the same length rules everywhere. */
export const newPasswordSchema = newPassword(M.newPasswordRequired);
export const resetPasswordSchema = z.object({ email, code, new_password: newPassword(M.newPasswordRequired) });
export const changePasswordSchema = z.object({
  old_password: currentPassword,
  new_password: newPassword(M.newPasswordRequired),
});
/** The refresh token may come in the body or, for the browser, in the HttpOnly cookie. */
export const refreshSchema = z.object({ refresh_token: z.string().min(1, M.refreshTokenRequired).max(4096).optional() });

export type SignUpRequest = z.infer<typeof signUpSchema>;
export type LoginRequest = z.infer<typeof loginSchema>;
export type VerifyEmailRequest = z.infer<typeof verifyEmailSchema>;
export type ResetPasswordRequest = z.infer<typeof resetPasswordSchema>;
export type ChangePasswordRequest = z.infer<typeof changePasswordSchema>;

/** What login, refresh and social-login answer: one shape for every client. */
export interface TokenResponse {
  access_token: string;
  id_token: string;
  refresh_token: string;
  /** Seconds until the access and ID tokens expire. */
  expires_in: number;
  token_type: 'Bearer';
  /** Set once, when the sign-in asked to remember this device: the client keeps it and sends it with later sign-ins. */
  device_key?: string;
}

/** Claims of the ID token the web app reads (name, email, sub, exp). */
export interface IdTokenClaims {
  sub: string;
  email: string;
  name: string;
  exp: number;
  iat: number;
  iss: string;
  aud: string;
  token_use: 'id';
}

/** Social identity providers offered on the sign-in and sign-up pages. */
export const SOCIAL_PROVIDERS = ['google'] as const;
export type SocialProvider = (typeof SOCIAL_PROVIDERS)[number];
export const AUTH_INTENTS = ['login', 'signup'] as const;
export type AuthIntent = (typeof AUTH_INTENTS)[number];

export const socialAuthorizeQuerySchema = z.object({
  provider: z.enum(SOCIAL_PROVIDERS, { message: 'Unknown identity provider' }),
  intent: z.enum(AUTH_INTENTS, { message: 'intent is login or signup' }).default('login'),
});

/**
 * What the /auth/callback page posts: the query parameters the provider sent
 * the browser back with (iss too, when the provider adds it: RFC 9207).
 */
export const socialLoginSchema = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  iss: z.string().max(2048).optional(),
  error: z.string().max(512).optional(),
});
export type SocialLoginRequest = z.infer<typeof socialLoginSchema>;
