import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ApiError, type ValidationIssue } from '../http/api-error';
import { requestPath } from '../http/route-prefixes';

/**
 * Deepest nesting of objects and arrays a JSON body may have. Far beyond any
 * real request, and low enough that code walking the value recursively
 * (validation, JSON.stringify, logging) cannot overflow the stack.
 */
export const JSON_MAX_DEPTH = 64;

export const REQUEST_TEXT_MESSAGES = {
  tooDeep: `Request body is nested more than ${JSON_MAX_DEPTH} levels deep`,
  nulCharacter: 'Text must not contain NUL characters (\\u0000)',
  loneSurrogate: 'Text must not contain unpaired UTF-16 surrogates',
  // The same words validation uses for every other field a schema does not know.
  unknownField: 'Unknown field',
} as const;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a string cannot be stored: PostgreSQL refuses NUL in text and json, and
 * a lone surrogate has no UTF-8 form (the driver would send invalid bytes).
 */
function textProblem(text: string): { msg: string; type: string } | null {
  if (text.includes('\0')) return { msg: REQUEST_TEXT_MESSAGES.nulCharacter, type: 'string_nul_character' };
  if (LONE_SURROGATE.test(text)) return { msg: REQUEST_TEXT_MESSAGES.loneSurrogate, type: 'string_unpaired_surrogate' };
  return null;
}

/**
 * The first thing in a parsed request part that no handler may see: nesting
 * deeper than JSON_MAX_DEPTH, a `__proto__` key (JSON.parse makes it an own
 * property that object spreads and schemas treat inconsistently), or a key or
 * string value that cannot be stored. Iterative, so a hostile depth cannot
 * overflow the stack here either.
 */
export function findUnacceptableText(value: unknown, root: string): ValidationIssue | null {
  const stack: Array<{ value: unknown; loc: Array<string | number>; depth: number }> = [{ value, loc: [root], depth: 0 }];
  while (stack.length > 0) {
    const { value: current, loc, depth } = stack.pop()!;
    if (typeof current === 'string') {
      const problem = textProblem(current);
      if (problem) return { loc, ...problem };
      continue;
    }
    if (current === null || typeof current !== 'object' || Buffer.isBuffer(current)) continue;
    if (depth >= JSON_MAX_DEPTH) return { loc: [root], msg: REQUEST_TEXT_MESSAGES.tooDeep, type: 'json_too_deep' };
    if (Array.isArray(current)) {
      current.forEach((item, index) => stack.push({ value: item, loc: [...loc, index], depth: depth + 1 }));
      continue;
    }
    for (const key of Object.keys(current)) {
      if (key === '__proto__') return { loc: [...loc, key], msg: REQUEST_TEXT_MESSAGES.unknownField, type: 'unrecognized_keys' };
      const problem = textProblem(key);
      if (problem) return { loc: [...loc, key], ...problem };
      stack.push({ value: (current as Record<string, unknown>)[key], loc: [...loc, key], depth: depth + 1 });
    }
  }
  return null;
}

/**
 * A preValidation hook: refuses, before any handler sees it, a body or query string holding text the
 * database cannot store or nesting recursive code cannot walk: a 422 naming
 * the field, instead of a database or stack error deep inside a handler.
 */
export function refuseUnacceptableText(req: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const issue = findUnacceptableText(req.body, 'body') ?? findUnacceptableText(req.query, 'query') ?? pathIssue(requestPath(req.url));
  done(issue ? ApiError.validation([issue]) : undefined);
}

function pathIssue(path: string): ValidationIssue | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    return null; // the router answers a malformed escape itself
  }
  const problem = textProblem(decoded);
  return problem ? { loc: ['path'], ...problem } : null;
}
