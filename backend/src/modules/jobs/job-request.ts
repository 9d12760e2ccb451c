import type { JobRequest } from '../runs/runs.service';
import type { JobRequestRow } from './jobs.repository';

/** A job's row as a run executes it. */
export function toJobRequest(row: JobRequestRow): JobRequest {
  return {
    url: row.url,
    method: row.method,
    headers: row.headers,
    body: row.body,
    notifyOnFailure: row.notify_on_failure,
    callbackUrl: row.callback_url,
    delivery: row.delivery,
    responseRules: row.response_rules,
    timeoutMs: row.timeout_ms,
    retry: row.retry_policy,
    signingSecrets: row.signing_secrets,
    identityToken: row.identity_token,
    overlap: row.overlap,
  };
}
