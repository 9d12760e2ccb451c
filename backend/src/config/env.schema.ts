import { z } from 'zod';
import { trustProxySetting } from './trusted-proxies';
import { decodeMasterKey } from '../common/crypto/secret-box';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no'], { message: 'expected true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((v) => v === 'true' || v === '1' || v === 'yes');

const int = (fallback: number, min: number, max: number) =>
  z
    .string()
    .default(String(fallback))
    .refine((v) => /^\d+$/.test(v.trim()), { message: `expected a whole number from ${min} to ${max}` })
    .transform((v) => Number(v.trim()))
    .refine((n) => n >= min && n <= max, { message: `expected a whole number from ${min} to ${max}` });

/** A host name with an optional port, as browsers send it in the Host header (no scheme, no path). */
const siteHost = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?(:\d{1,5})?$/i, { message: 'expected a host name such as app.example.com or localhost:3000' });

/** A master key as `openssl rand -base64 32` prints it: base64 of exactly 32 bytes. */
const isMasterKey = (v: string) => decodeMasterKey(v) !== null;
const masterKey = z.string().refine(isMasterKey, { message: 'expected 32 random bytes in base64 (openssl rand -base64 32)' });

const postgresUrl = z
  .string()
  .refine((v) => /^postgres(ql)?:\/\/.+/.test(v), { message: 'expected a postgres:// or postgresql:// URL' });

/**
 * Every environment variable the server reads, with its default. The process
 * refuses to start when one is malformed, naming the variable: a typo in
 * production must fail loudly at boot, not at 3 a.m. when the code path runs.
 */
export const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: int(3000, 0, 65535),
  // Prometheus /metrics (see backend/src/modules/metrics): a bearer token, or a port of its own on loopback.
  METRICS_TOKEN: z.string().min(24, { message: 'expected at least 24 characters' }).optional(),
  METRICS_PORT: z
    .string()
    .regex(/^\s*\d+\s*$/, { message: 'expected a whole number from 1 to 65535' })
    .transform((v) => Number(v.trim()))
    .refine((n) => n >= 1 && n <= 65535, { message: 'expected a whole number from 1 to 65535' })
    .optional(),
  PUBLIC_URL: z.url({ message: 'expected an absolute URL such as https://cronbeam.example' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: postgresUrl.optional(),
  // A read replica of DATABASE_URL for lists, logs, exports, dashboards and status pages (see database/read-database.ts).
  DATABASE_READ_URL: postgresUrl.optional(),
  DATABASE_POOL_SIZE: int(10, 1, 200),
  DATA_DIR: z.string().min(1).default('./data'),
  // Encryption at rest (see backend/src/common/crypto): the master key, and earlier ones still able to decrypt, comma-separated.
  ENCRYPTION_KEY: masterKey.optional(),
  ENCRYPTION_KEYS_PREVIOUS: z
    .string()
    .refine((v) => v.split(',').every((k) => k.trim() === '' || isMasterKey(k)), { message: 'expected base64-encoded 32-byte keys separated by commas' })
    .optional(),
  WEB_DIST_DIR: z.string().min(1).default('./dist/web'),
  // Unset: the execution timeout plus time to store the results (see config/shutdown-budget.ts).
  SHUTDOWN_TIMEOUT_MS: z
    .string()
    .regex(/^\s*\d+\s*$/, { message: 'expected a whole number from 0 to 600000' })
    .transform((v) => Number(v.trim()))
    .refine((n) => n <= 600_000, { message: 'expected a whole number from 0 to 600000' })
    .optional(),
  // Proxies in front: a hop count or their addresses (see trusted-proxies.ts); `true` is refused.
  TRUST_PROXY: trustProxySetting,
  // Public site and host guards (see backend/src/web/site-pages.ts); all unset: one host serves everything.
  APP_HOST: siteHost.optional(),
  MARKETING_HOST: siteHost.optional(),
  DEV_HOST: siteHost.optional(),
  CONTACT_EMAIL: z.email({ message: 'expected an email address' }).optional(),
  // Identity (see backend/src/modules/auth).
  AUTH_PROVIDER: z.enum(['local', 'cognito']).default('local'),
  AUTH_CLIENT_ID: z.string().min(1).default('cronbeam-web'),
  AUTH_ISSUER: z.url({ message: 'expected an absolute URL' }).optional(),
  AUTH_TOKEN_TTL_SECONDS: int(3_600, 5, 86_400),
  AUTH_REFRESH_TOKEN_TTL_DAYS: int(30, 1, 365),
  AUTH_SIGNING_KEY_MAX_AGE_DAYS: int(90, 1, 3_650),
  AUTH_CODE_TTL_SECONDS: int(86_400, 5, 604_800),
  AUTH_CODE_MAX_ATTEMPTS: int(5, 1, 100),
  AUTH_MAX_FAILURES_PER_ACCOUNT: int(5, 1, 1_000),
  AUTH_MAX_FAILURES_PER_IP: int(100, 1, 100_000),
  AUTH_MAX_SIGNUPS_PER_IP: int(10, 1, 100_000),
  AUTH_THROTTLE_WINDOW_SECONDS: int(900, 1, 86_400),
  AUTH_CHALLENGE_TTL_SECONDS: int(180, 1, 3_600),
  AUTH_REMEMBERED_DEVICE_DAYS: int(30, 1, 365),
  /** How recent a sign-in must be for a new API key, account deletion or two-factor enrolment. */
  AUTH_REAUTHENTICATION_MAX_AGE_SECONDS: int(600, 1, 86_400),
  COGNITO_REGION: z.string().min(1).optional(),
  COGNITO_USER_POOL_ID: z.string().min(1).optional(),
  COGNITO_CLIENT_ID: z.string().min(1).optional(),
  COGNITO_ENDPOINT: z.url({ message: 'expected an absolute URL' }).optional(),
  COGNITO_DOMAIN: z.url({ message: 'expected an absolute URL' }).optional(),
  GOOGLE_OIDC_ISSUER: z.url({ message: 'expected an absolute URL' }).default('https://accounts.google.com'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  // Mail (see backend/src/modules/mail).
  SMTP_URL: z.string().regex(/^smtps?:\/\/.+/, { message: 'expected an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: z.string().min(3).default('Cronbeam <no-reply@cronbeam.localhost>'),
  // Alert channels (see backend/src/modules/alert-channels): test alerts and verification mails per fixed window.
  ALERT_SEND_WINDOW_SECONDS: int(3_600, 1, 86_400),
  ALERT_TESTS_PER_CHANNEL: int(10, 1, 10_000),
  ALERT_TESTS_PER_USER: int(30, 1, 100_000),
  ALERT_VERIFICATION_MAILS_PER_USER: int(10, 1, 10_000),
  // Where Telegram channels send (the Bot API); a local Bot API server or a test stand-in may take its place.
  TELEGRAM_API_URL: z
    .url({ message: 'expected an absolute http:// or https:// URL' })
    .refine((v) => /^https?:\/\//.test(v), { message: 'expected an absolute http:// or https:// URL' })
    .default('https://api.telegram.org'),
  // Scheduler and executor (see backend/src/modules/scheduler).
  SCHEDULER_ENABLED: bool(true),
  ALLOW_PRIVATE_TARGETS: bool(false),
  PRIVATE_TARGET_ALLOWLIST: z.string().default(''),
  // A PEM file of CA certificates trusted for job targets besides the public roots (an internal CA); empty: none.
  TARGET_CA_FILE: z.string().default(''),
  EXECUTION_TIMEOUT_MS: int(30_000, 100, 7_200_000),
  SCHEDULER_POLL_INTERVAL_MS: int(5_000, 10, 600_000),
  SCHEDULER_LOOKAHEAD_MS: int(3_000, 0, 60_000),
  SCHEDULER_LEASE_GRACE_MS: int(30_000, 50, 3_600_000),
  SCHEDULER_BATCH_SIZE: int(1_000, 1, 10_000),
  EXECUTOR_CONCURRENCY: int(512, 1, 10_000),
  EXECUTOR_CONNECTIONS_PER_ORIGIN: int(32, 1, 10_000),
  EXECUTOR_MAX_CONNECTIONS_PER_ORIGIN: int(512, 1, 100_000),
  RETRY_BACKOFF_BASE_MS: int(10_000, 1, 3_600_000),
  HOUSEKEEPING_INTERVAL_MS: int(60_000, 50, 86_400_000),
  SCHEDULER_IDLE_GC: bool(true),
  SCHEDULER_HEARTBEAT_INTERVAL_MS: int(1_000, 50, 60_000),
  SCHEDULER_INSTANCE_STALE_MS: int(3_000, 150, 600_000),
  // Self-hosted n8n on Fly.io (see backend/src/modules/deployments).
  FLY_API_BASE: z.url({ message: 'expected an absolute URL' }).default('https://api.machines.dev'),
  FLY_ORG_SLUG: z.string().min(1).default('personal'),
  FLY_N8N_IMAGE: z.string().min(1).default('n8nio/n8n:latest'),
  FLY_APP_URL_TEMPLATE: z
    .string()
    .refine((v) => /^https?:\/\/.*\{app\}/.test(v), { message: 'expected an http(s) URL containing {app}' })
    .default('https://{app}.fly.dev'),
  FLY_RETRY_BASE_MS: int(1_000, 1, 60_000),
  FLY_POLL_INTERVAL_MS: int(5_000, 10, 60_000),
  FLY_STARTUP_TIMEOUT_SECONDS: int(600, 1, 3_600),
  FLY_PROVISION_STALE_SECONDS: int(300, 1, 86_400),
  // Public API and operators (see backend/src/modules/api-keys, admin).
  PROG_RATE_LIMIT: int(120, 1, 1_000_000),
  PROG_RATE_LIMIT_WINDOW_SECONDS: int(60, 1, 86_400),
  ADMIN_TOKEN: z.string().min(24, { message: 'expected at least 24 characters' }).optional(),
  // Billing (see backend/src/modules/billing); unset STRIPE_SECRET_KEY turns billing off (503).
  STRIPE_SECRET_KEY: z.string().regex(/^(sk|rk)_\S+$/, { message: 'expected a Stripe secret key (sk_... or rk_...)' }).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().regex(/^whsec_\S+$/, { message: 'expected a webhook signing secret (whsec_...)' }).optional(),
  STRIPE_API_BASE: z
    .url({ message: 'expected an absolute http:// or https:// URL' })
    .refine((v) => /^https?:\/\//.test(v), { message: 'expected an absolute http:// or https:// URL' })
    .optional(),
});

export type Env = z.infer<typeof envSchema>;
