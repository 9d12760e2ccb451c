// Verifies a request Cronbeam sent to your endpoint: the X-Cronbeam-Signature
// header (HMAC-SHA256 with the job's signing secret) and, for jobs with
// identity_token, the Authorization: Bearer JWT (ES256, Cronbeam's keys).
// Node.js 18+, no dependencies. See docs/signed-requests.md.
import { createHmac, createPublicKey, timingSafeEqual, verify } from 'node:crypto';

/**
 * True when one of the header's v1 signatures is the job's, over
 * "<t>.<METHOD>.<URL>.<body>", and t is within `toleranceSeconds` of now.
 * `url` is the job's URL as saved in Cronbeam; `body` the raw body received ('' for none).
 */
export function verifySignature(header, secret, { method, url, body }, toleranceSeconds = 300, nowMs = Date.now()) {
  const parts = String(header ?? '').split(',').map((part) => part.trim());
  const t = Number(parts.find((part) => part.startsWith('t='))?.slice(2));
  if (!Number.isInteger(t) || Math.abs(nowMs / 1000 - t) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${method}.${url}.${body}`).digest();
  return parts
    .filter((part) => part.startsWith('v1='))
    .some((part) => {
      const given = Buffer.from(part.slice(3), 'hex');
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/**
 * The token's claims when it is Cronbeam's and meant for you; throws otherwise.
 * `jwks`: the JSON of <issuer>/.well-known/target-jwks.json (cache it; fetch again for an unknown kid).
 */
export function verifyIdentityToken(authorization, { issuer, audience, jwks }, nowMs = Date.now()) {
  const token = /^Bearer (\S+)$/.exec(String(authorization ?? ''))?.[1];
  const [head, payload, signature] = token?.split('.') ?? [];
  if (!signature) throw new Error('no bearer token');
  const decode = (part) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  const header = decode(head);
  const jwk = jwks.keys.find((key) => key.kid === header.kid);
  if (header.alg !== 'ES256' || !jwk) throw new Error('unknown signing key');
  const key = createPublicKey({ key: jwk, format: 'jwk' });
  const valid = verify('sha256', Buffer.from(`${head}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('bad signature');
  const claims = decode(payload);
  const now = Math.floor(nowMs / 1000);
  if (claims.iss !== issuer) throw new Error('wrong issuer');
  if (claims.aud !== audience) throw new Error('wrong audience');
  if (!(claims.exp > now - 30) || !(claims.iat < now + 30)) throw new Error('expired or not yet valid');
  return claims; // claims.job_id and claims.execution_id name the job and this execution
}

// Run as a script, it reads one request as JSON on stdin and prints what it verified (the test suite drives it so).
if (import.meta.url === `file://${process.argv[1]}`) {
  const chunks = [];
  for await (const chunk of process.stdin) chunks.push(chunk);
  const input = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const signature = verifySignature(input.headers['x-cronbeam-signature'], input.secret, input);
  let claims = null;
  if (input.jwks) {
    try {
      claims = verifyIdentityToken(input.headers.authorization, input);
    } catch (error) {
      claims = { error: error.message };
    }
  }
  process.stdout.write(JSON.stringify({ signature, claims }));
}
