import { z } from 'zod';

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
  PUBLIC_URL: z.url({ message: 'expected an absolute URL such as https://cronbeam.example' }).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: postgresUrl.optional(),
  DATABASE_POOL_SIZE: int(10, 1, 200),
  DATA_DIR: z.string().min(1).default('./data'),
  WEB_DIST_DIR: z.string().min(1).default('./dist/web'),
  SHUTDOWN_TIMEOUT_MS: int(10_000, 0, 300_000),
  TRUST_PROXY: bool(false),
});

export type Env = z.infer<typeof envSchema>;
