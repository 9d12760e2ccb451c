import * as path from 'node:path';
import { envSchema, type Env } from './env.schema';
import { withoutTrailingSlashes } from '@cronbeam/shared/text/trailing-slashes';

/** Raised when the environment does not describe a runnable server. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Host names that reach only this machine. */
const LOOPBACK_HOST = /^(?:localhost|[\w-]+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

/**
 * Development mode serves the mail outbox (sign-up and password-reset codes) at
 * /api/dev/outbox and makes no secret of its settings: a server whose public
 * address is another machine's is a deployment started without
 * NODE_ENV=production, and refuses to start.
 */
function refuseDevelopmentOnPublicUrl(env: Env): void {
  if (env.NODE_ENV !== 'development' || !env.PUBLIC_URL) return;
  const host = new URL(env.PUBLIC_URL).hostname;
  if (!LOOPBACK_HOST.test(host)) {
    throw new ConfigError([
      `PUBLIC_URL: ${host} is not this machine, but NODE_ENV is development, which serves sign-up and reset codes at /api/dev/outbox: set NODE_ENV=production for a deployed server (or a localhost PUBLIC_URL for development)`,
    ]);
  }
}

/**
 * A read replica follows a PostgreSQL server of one's own: the embedded
 * database (no DATABASE_URL) has none, and ignoring the setting would hide
 * a deployment that points at the wrong place.
 */
function replicaWithoutPrimary(env: Env): string[] {
  if (!env.DATABASE_READ_URL || env.DATABASE_URL) return [];
  return ['DATABASE_READ_URL: needs DATABASE_URL (the read replica\'s primary); the embedded database has no replica, so unset DATABASE_READ_URL or set DATABASE_URL'];
}

/**
 * What production must be told rather than left to a default that only fits
 * one process on one machine:
 * - ENCRYPTION_KEY: a generated key would be lost with the machine, and the secrets with it.
 * - PUBLIC_URL: the default, http://localhost:$PORT, differs between instances
 *   on other ports and is no address a user can reach. It is the issuer that
 *   local sign-in tokens name and every instance demands (instances that
 *   disagree refuse each other's tokens), and the base of links in mail, OAuth
 *   redirects and monitor ping URLs, so AUTH_ISSUER alone does not do.
 */
function missingInProduction(env: Env): string[] {
  if (env.NODE_ENV !== 'production') return [];
  const missing: string[] = [];
  if (!env.ENCRYPTION_KEY) missing.push('ENCRYPTION_KEY: required when NODE_ENV=production (32 random bytes in base64: openssl rand -base64 32)');
  if (!env.PUBLIC_URL) {
    missing.push(
      'PUBLIC_URL: required when NODE_ENV=production: the address users reach the service at (e.g. https://cron.example.com), the same for every instance; it is the issuer of sign-in tokens, so instances without it would refuse each other\'s tokens, and the base of links in mail',
    );
  }
  return missing;
}

/** The validated, typed configuration every module reads (never process.env). */
export class AppConfig {
  readonly env: Env;
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly webDistDir: string;

  private constructor(env: Env) {
    refuseDevelopmentOnPublicUrl(env);
    this.env = env;
    this.publicUrl = withoutTrailingSlashes(env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`);
    this.dataDir = path.resolve(env.DATA_DIR);
    this.webDistDir = path.resolve(env.WEB_DIST_DIR);
  }

  get isProduction(): boolean {
    return this.env.NODE_ENV === 'production';
  }

  get isDevelopment(): boolean {
    return this.env.NODE_ENV === 'development';
  }

  /** Parses a raw environment (process.env or a test's overrides). Empty strings count as unset. */
  static fromEnvironment(raw: Record<string, string | undefined>): AppConfig {
    const cleaned = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined && v !== ''));
    const parsed = envSchema.safeParse(cleaned);
    if (!parsed.success) {
      throw new ConfigError(
        parsed.error.issues.map((issue) => {
          const name = issue.path.join('.') || '(environment)';
          // Never echo a value that may hold a credential (tokens, keys, URLs with passwords).
          const echo = typeof cleaned[name] === 'string' && !/PASSWORD|TOKEN|SECRET|KEY|CREDENTIAL|URL/.test(name);
          const got = echo ? ` (got "${cleaned[name]}")` : '';
          return `${name}: ${issue.message}${got}`;
        }),
      );
    }
    const missing = [...replicaWithoutPrimary(parsed.data), ...missingInProduction(parsed.data)];
    if (missing.length > 0) throw new ConfigError(missing);
    return new AppConfig(parsed.data);
  }
}
