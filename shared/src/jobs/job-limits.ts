/**
 * Limits of job definitions and log reads. Kept free of imports so that
 * packages without the validation library (the n8n node, which must ship
 * without runtime dependencies) can quote the same numbers.
 */
export const JOB_LIMITS = {
  nameMaxLength: 50,
  urlMaxLength: 2048,
  maxHeaders: 50,
  headerValueMaxLength: 8192,
  /** Request body sent to the target, in bytes of UTF-8. */
  bodyMaxBytes: 64 * 1024,
} as const;

/** Query of the logs endpoints: `?limit=` from 1 to 1000, 50 when omitted. */
export const JOB_LOGS_LIMITS = { default: 50, max: 1000 } as const;
