/**
 * Removes credentials from anything about to be logged. Keys are matched by
 * name (any key mentioning password, token, secret, key, credential,
 * authorization or cookie has its value replaced) and free text is searched
 * for the usual shapes a secret takes inside a message: `name=value`,
 * `name: value`, `"name": "value"`, bearer tokens, JWTs, API keys, URL
 * user-info and heartbeat ping URLs (their last segment is the monitor's
 * token).
 *
 * Log text includes what clients send (request URLs, error messages quoting
 * input), so every search here runs in time linear in the text: each pattern
 * can start only where a run of characters starts (a literal prefix or a
 * lookbehind pins it) and never backtracks into a run it has passed. Names are
 * found first and only then tested for a sensitive word; a single pattern
 * that searched for the word inside the name backtracked cubically on a URL
 * of repeated words. `npm run lint` refuses a pattern that is not linear
 * (docs/adr/0120-linear-parsing-and-client-address.md).
 */
import { IncomingMessage, ServerResponse } from 'node:http';

export const REDACTED = '[REDACTED]';

const SENSITIVE_KEY = /pass(word)?|token|secret|(^|[^a-z])key|apikey|api_key|credential|authorization|cookie|^code$/i;
/** A name found in text whose value is a secret. */
const SENSITIVE_NAME = /passw(?:or)?d|token|secret|key|credential|authorization|code/i;

/** A name (a whole run of word characters and dashes) and its `=` or `:` separator. */
const NAME_THEN_SEPARATOR = /(?<![\w-])[\w-]+\s*[=:]\s*/g;
/** The value after a separator, up to the next space or delimiter (sticky: read where the separator ends). */
const VALUE_AT = /[^\s"&',;]+/y;
/** A JSON member whose value is a string: `"name": "value"`. */
const JSON_STRING_MEMBER = /("([\w-]*)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;
const BEARER_OR_BASIC = /\b(Bearer|Basic)\s+[\w+./=~-]+/g;

const TEXT_PATTERNS: Array<[RegExp, string]> = [
  [/(?<![\w-])eyJ[\w-]{5,}\.[\w-]{5,}\.[\w-]*/g, REDACTED],
  [/\bcb_(?:live|test)_[\dA-Za-z]+/g, REDACTED],
  // scheme://user:password@host
  [/:\/\/([^\s/:@]+):[^\s/@]+@/g, `://$1:${REDACTED}@`],
  // Heartbeat ping URLs: /ping/<token>, /ping/<token>/fail, /ping/<token>/start.
  [/\/ping\/[\w-]+/g, `/ping/${REDACTED}`],
];

/** Replaces the value of every `name=value` or `name: value` pair whose name says it is a secret. */
function scrubNamedValues(text: string): string {
  let out = '';
  let copied = 0;
  NAME_THEN_SEPARATOR.lastIndex = 0;
  for (let match = NAME_THEN_SEPARATOR.exec(text); match; match = NAME_THEN_SEPARATOR.exec(text)) {
    if (!SENSITIVE_NAME.test(match[0])) continue;
    const valueStart = NAME_THEN_SEPARATOR.lastIndex;
    VALUE_AT.lastIndex = valueStart;
    if (!VALUE_AT.test(text)) continue;
    out += text.slice(copied, valueStart) + REDACTED;
    copied = VALUE_AT.lastIndex;
    NAME_THEN_SEPARATOR.lastIndex = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

export function scrubText(text: string): string {
  // The scheme first: `Authorization: Bearer x` would otherwise lose only the word Bearer as the header's value.
  let out = text.replace(BEARER_OR_BASIC, `$1 ${REDACTED}`);
  out = out.replace(JSON_STRING_MEMBER, (member, nameAndColon: string, name: string) =>
    SENSITIVE_NAME.test(name) ? `${nameAndColon}"${REDACTED}"` : member,
  );
  out = scrubNamedValues(out);
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
