/**
 * Removes credentials from anything about to be logged. Keys are matched by
 * name (any key mentioning password, token, secret, key, credential,
 * authorization or cookie has its value replaced) and free text is searched
 * for the usual shapes a secret takes inside a message: `name=value`,
 * `name: value`, bearer tokens, JWTs and URL user-info.
 */
import { IncomingMessage, ServerResponse } from 'node:http';

export const REDACTED = '[REDACTED]';

const SENSITIVE_KEY = /pass(word)?|token|secret|(^|[^a-z])key|apikey|api_key|credential|authorization|cookie|^code$/i;
const SENSITIVE_WORD = '(?:password|passwd|token|secret|api[_-]?key|key|credentials?|authorization|code)';

const TEXT_PATTERNS: Array<[RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`],
  // JSON-ish "password":"..." and key=value / key: value pairs
  [new RegExp(`("[\\w-]*${SENSITIVE_WORD}[\\w-]*"\\s*:\\s*)"(?:[^"\\\\]|\\\\.)*"`, 'gi'), `$1"${REDACTED}"`],
  [new RegExp(`(\\b[\\w-]*${SENSITIVE_WORD}[\\w-]*\\s*[=:]\\s*)([^\\s&,;"']+)`, 'gi'), `$1${REDACTED}`],
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*/g, REDACTED],
  [/\bcb_(live|test)_[A-Za-z0-9]+/g, REDACTED],
  [/(\b[a-z][a-z0-9+.-]*:\/\/[^:/\s@]+:)[^@\s/]+@/gi, `$1${REDACTED}@`],
];

export function scrubText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of TEXT_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

export function isSensitiveKey(key: string): boolean {
  return SENSITIVE_KEY.test(key);
}

export function scrubValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return scrubText(value);
  if (value === null || typeof value !== 'object' || depth > 8) return value;
  // HTTP messages are logged only through their serializers (request-logger.ts), which pick safe fields;
  // a copy would lose the getters they read (headersSent) and walk the socket and server behind them.
  if (value instanceof IncomingMessage || value instanceof ServerResponse) return value;
  if (value instanceof Error) {
    return { type: value.name, message: scrubText(value.message), stack: value.stack && scrubText(value.stack) };
  }
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSensitiveKey(k) && v !== undefined && v !== null && v !== '' ? REDACTED : scrubValue(v, depth + 1);
  }
  return out;
}
