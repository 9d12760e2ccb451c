import * as path from 'node:path';
import { envSchema, type Env } from './env.schema';

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

/** The validated, typed configuration every module reads (never process.env). */
export class AppConfig {
  readonly env: Env;
  readonly publicUrl: string;
  readonly dataDir: string;
  readonly webDistDir: string;

  private constructor(env: Env) {
    refuseDevelopmentOnPublicUrl(env);
    this.env = env;
    this.publicUrl = (env.PUBLIC_URL ?? `http://localhost:${env.PORT || 3000}`).replace(/(?<!\/)\/+$/, '');
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
    // Production never falls back to a generated key: it would be lost with the machine, and the secrets with it.
    if (parsed.data.NODE_ENV === 'production' && !parsed.data.ENCRYPTION_KEY) {
      throw new ConfigError(['ENCRYPTION_KEY: required when NODE_ENV=production (32 random bytes in base64: openssl rand -base64 32)']);
    }
    return new AppConfig(parsed.data);
  }
}
