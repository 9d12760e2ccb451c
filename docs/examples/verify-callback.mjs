// Verifies a run callback Cronbeam POSTed to a job's callback_url: the
// X-Cronbeam-Signature header, signed like alert webhooks (HMAC-SHA256 of
// "<t>.<body>" with the job's signing secret), then the body it vouches for.
// Node.js 18+, no dependencies. See docs/run-callbacks.md.
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The callback's outcome when one of the header's v1 signatures is the job's
 * over "<t>.<rawBody>", t is within `toleranceSeconds` of now, and the body is
 * a run.completed event of `jobId`; null otherwise. `rawBody`: the body exactly as received.
 */
export function verifyCallback(header, secret, rawBody, jobId, toleranceSeconds = 300, nowMs = Date.now()) {
  const parts = String(header ?? '').split(',').map((part) => part.trim());
  const t = Number(parts.find((part) => part.startsWith('t='))?.slice(2));
  if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > toleranceSeconds) return null;
  const expected = createHmac('sha256', secret).update(`${t}.${rawBody}`).digest();
  const signed = parts
    .filter((part) => part.startsWith('v1='))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
  if (!signed) return null;
  // Parse only what the signature vouches for, and only a callback of the expected job.
  let outcome;
  try {
    outcome = JSON.parse(rawBody);
  } catch {
    return null;
  }
  return outcome?.event === 'run.completed' && outcome.job_id === jobId ? outcome : null; // outcome.run_id: drop repeats by it
}

// Run as a script, it reads one callback as JSON on stdin and prints what it verified (the test suite drives it so).
if (import.meta.url === `file://${process.argv[1]}`) {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  process.stdout.write(JSON.stringify({ outcome: verifyCallback(input.headers['x-cronbeam-signature'], input.secret, input.body, input.job_id) }));
}
