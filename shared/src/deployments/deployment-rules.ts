import { z } from 'zod';
import { findRegion } from './regions';

/** Limits of a deployment request (the form and the API apply the same ones). */
export const DEPLOYMENT_LIMITS = {
  flyTokenMinLength: 10,
  flyTokenMaxLength: 4096,
  usernameMinLength: 3,
  usernameMaxLength: 64,
  passwordMinLength: 6,
  passwordMaxLength: 128,
  ramMinMb: 512,
  ramMaxMb: 8192,
  ramStepMb: 256,
  ramDefaultMb: 2048,
  deploymentNameMaxLength: 50,
} as const;

/** Every text a user can see for a bad deployment request, shared by the API and the web app. */
export const DEPLOYMENT_MESSAGES = {
  flyToken: 'Fly.io token must be at least 10 characters long',
  flyTokenTooLong: `Fly.io token must be at most ${DEPLOYMENT_LIMITS.flyTokenMaxLength} characters long`,
  username: 'Username must be at least 3 characters long',
  usernameTooLong: `Username must be at most ${DEPLOYMENT_LIMITS.usernameMaxLength} characters long`,
  usernamePattern: 'Username can only contain letters, numbers, dots, hyphens (-) and underscores (_)',
  password: 'Password must be at least 6 characters long',
  passwordTooLong: `Password must be at most ${DEPLOYMENT_LIMITS.passwordMaxLength} characters long`,
  region: 'Please select a valid region',
  ram: 'RAM must be between 512 MB and 8192 MB',
  ramStep: 'RAM must be a multiple of 256 MB',
  appName: 'Subdomain must be 3-30 characters: lowercase letters, numbers and hyphens, starting with a letter',
  deploymentName: `Deployment name must be at most ${DEPLOYMENT_LIMITS.deploymentNameMaxLength} characters`,
  notAnObject: 'Request body must be a JSON object',
  quotaExceeded: 'N8N deployment limit exceeded',
  notFound: 'Deployment not found',
  stillProvisioning: 'The deployment is still being provisioned; wait until it is live or failed',
  alreadyDeleted: 'The deployment has already been deleted',
} as const;

const USERNAME = /^[A-Za-z0-9._-]+$/;
/** Fly app names become the `{name}.fly.dev` host: DNS-safe, lowercase. */
export const APP_NAME_PATTERN = /^[a-z][a-z0-9-]{1,28}[a-z0-9]$/;

const text = (min: number, max: number, tooShort: string, tooLong: string) =>
  z.string({ error: tooShort }).min(min, { error: tooShort }).max(max, { error: tooLong });

/** POST /api/deploy/n8n. The token and password are checked as sent (no trimming: a space may be part of them). */
export const deploymentRequestSchema = z.object(
  {
    fly_token: text(DEPLOYMENT_LIMITS.flyTokenMinLength, DEPLOYMENT_LIMITS.flyTokenMaxLength, DEPLOYMENT_MESSAGES.flyToken, DEPLOYMENT_MESSAGES.flyTokenTooLong),
    username: z
      .string({ error: DEPLOYMENT_MESSAGES.username })
      .trim()
      .min(DEPLOYMENT_LIMITS.usernameMinLength, { error: DEPLOYMENT_MESSAGES.username, abort: true })
      .max(DEPLOYMENT_LIMITS.usernameMaxLength, { error: DEPLOYMENT_MESSAGES.usernameTooLong, abort: true })
      .regex(USERNAME, { error: DEPLOYMENT_MESSAGES.usernamePattern }),
    password: text(DEPLOYMENT_LIMITS.passwordMinLength, DEPLOYMENT_LIMITS.passwordMaxLength, DEPLOYMENT_MESSAGES.password, DEPLOYMENT_MESSAGES.passwordTooLong),
    region: z
      .string({ error: DEPLOYMENT_MESSAGES.region })
      .trim()
      .min(2, { error: DEPLOYMENT_MESSAGES.region, abort: true })
      .refine((code) => findRegion(code) !== undefined, { error: DEPLOYMENT_MESSAGES.region }),
    ram_mb: z
      .number({ error: DEPLOYMENT_MESSAGES.ram })
      .int({ error: DEPLOYMENT_MESSAGES.ram })
      .min(DEPLOYMENT_LIMITS.ramMinMb, { error: DEPLOYMENT_MESSAGES.ram, abort: true })
      .max(DEPLOYMENT_LIMITS.ramMaxMb, { error: DEPLOYMENT_MESSAGES.ram, abort: true })
      .refine((mb) => mb % DEPLOYMENT_LIMITS.ramStepMb === 0, { error: DEPLOYMENT_MESSAGES.ramStep }),
    app_name: z
      .string({ error: DEPLOYMENT_MESSAGES.appName })
      .trim()
      .toLowerCase()
      .regex(APP_NAME_PATTERN, { error: DEPLOYMENT_MESSAGES.appName })
      .optional()
      .or(z.literal('').transform(() => undefined))
      .or(z.null().transform(() => undefined)),
    deployment_name: z
      .string({ error: DEPLOYMENT_MESSAGES.deploymentName })
      .trim()
      .max(DEPLOYMENT_LIMITS.deploymentNameMaxLength, { error: DEPLOYMENT_MESSAGES.deploymentName })
      .optional()
      .or(z.null().transform(() => undefined)),
  },
  { error: DEPLOYMENT_MESSAGES.notAnObject },
);

export type DeploymentRequestInput = z.input<typeof deploymentRequestSchema>;
export type ValidDeploymentRequest = z.output<typeof deploymentRequestSchema>;

/** DELETE /api/deploy/n8n/{id}: the Fly token again, used for the teardown only. */
export const teardownRequestSchema = z.object(
  {
    fly_token: text(DEPLOYMENT_LIMITS.flyTokenMinLength, DEPLOYMENT_LIMITS.flyTokenMaxLength, DEPLOYMENT_MESSAGES.flyToken, DEPLOYMENT_MESSAGES.flyTokenTooLong),
  },
  { error: DEPLOYMENT_MESSAGES.notAnObject },
);
export type ValidTeardownRequest = z.output<typeof teardownRequestSchema>;
