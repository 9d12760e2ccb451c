import { z } from 'zod';
import type { IdentityToken } from './job-types';

/**
 * How a target proves a request came from Cronbeam for one of its jobs.
 *
 * Every request of a job with a signing secret carries
 * `X-Cronbeam-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>]`, each v1 an
 * HMAC-SHA256 with one of the job's secrets over `<t>.<METHOD>.<URL>.<body>`
 * (the URL as the job has it, the body as sent, empty when none). While a
 * rotated secret overlaps with the new one, the request is signed with both.
 *
 * A job with `identity_token` also carries `Authorization: Bearer <JWT>`
 * (ES256, keys at /.well-known/target-jwks.json) whose claims name the
 * issuer, the job, the execution and the audience: the target URL or the
 * audience the job configured.
 */
export const REQUEST_SIGNATURE_HEADER = 'x-cronbeam-signature';

/** The path of the keys that verify identity tokens (beside the sign-in keys at /.well-known/jwks.json). */
export const TARGET_JWKS_PATH = '/.well-known/target-jwks.json';

/** An identity token lives this long after it is made (a few seconds before the request is sent). */
export const IDENTITY_TOKEN_TTL_SECONDS = 300;

/** The text a request's signature is over. */
export function signedRequestText(timestamp: number, method: string, url: string, body: string): string {
  return `${timestamp}.${method}.${url}.${body}`;
}

export const SIGNING_LIMITS = { audienceMaxLength: 500, maxOverlapSeconds: 7 * 86_400, defaultOverlapSeconds: 86_400 } as const;

export type { IdentityToken };

export const SIGNING_MESSAGES = {
  identityToken: 'identity_token must be null or an object with audience (text, or null for the job URL)',
  audience: `identity_token.audience must be text of 1 to ${SIGNING_LIMITS.audienceMaxLength} characters without spaces, or null`,
  authorizationHeader: "identity_token cannot be used with an Authorization header of the job's own: the token is sent in Authorization",
  overlap: `overlap_seconds must be a whole number from 0 to ${SIGNING_LIMITS.maxOverlapSeconds}`,
} as const;

export const identityTokenSchema = z
  .strictObject(
    {
      audience: z
        .string({ error: SIGNING_MESSAGES.audience })
        .trim()
        .min(1, SIGNING_MESSAGES.audience)
        .max(SIGNING_LIMITS.audienceMaxLength, SIGNING_MESSAGES.audience)
        .regex(/^\S+$/, SIGNING_MESSAGES.audience)
        .nullable()
        .default(null),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : SIGNING_MESSAGES.identityToken) },
  )
  .nullable()
  .default(null);

/** POST …/jobs/{id}/signing-secret: a new secret; the one it replaces still signs for `overlap_seconds`. */
export const signingSecretRotationSchema = z
  .strictObject(
    {
      overlap_seconds: z
        .number({ error: SIGNING_MESSAGES.overlap })
        .int(SIGNING_MESSAGES.overlap)
        .min(0, SIGNING_MESSAGES.overlap)
        .max(SIGNING_LIMITS.maxOverlapSeconds, SIGNING_MESSAGES.overlap)
        .default(SIGNING_LIMITS.defaultOverlapSeconds),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : 'Request body must be a JSON object') },
  )
  .default({ overlap_seconds: SIGNING_LIMITS.defaultOverlapSeconds });

/** What a rotation answers: the new secret (shown this once) and until when the previous one still signs. */
export interface SigningSecretRotation {
  signing_secret: string;
  previous_valid_until: string | null;
}
