import { RESPONSE_RULE_MESSAGES } from '@cronbeam/shared/jobs/response-rules';
import { ApiError } from '../../common/http/api-error';

/** A job may shorten the request time limit, never lengthen it past the server's (`maxTimeoutMs`, the executor's). */
export function assertTimeoutWithin(timeoutSeconds: number | null, maxTimeoutMs: number): void {
  const max = Math.floor(maxTimeoutMs / 1000);
  if (timeoutSeconds !== null && timeoutSeconds > max) throw ApiError.invalidField(['body', 'timeout_seconds'], RESPONSE_RULE_MESSAGES.timeout(max));
}
