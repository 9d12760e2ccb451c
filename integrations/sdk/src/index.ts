export * from './core';
export { createCronbeamClient, normaliseBaseUrl, unwrap, type CronbeamClient, type CronbeamClientOptions } from './client';
export { retryAfterMs, type RetryOptions } from './retry';
