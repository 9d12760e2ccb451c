import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * What browsers and caches revalidate: the site's pages and the app page
 * (Cache-Control: no-cache), status pages, their feeds, badges, the sitemap
 * and robots.txt (a short max-age). Files get their tags from the static
 * handler. The API's JSON gets none: its clients do not revalidate, and
 * hashing every answer would cost every request.
 */
const REVALIDATED_TYPE = /^(?:text\/html|text\/plain|application\/xml|application\/atom\+xml|image\/svg\+xml)(?:;|$)/i;

/** A weak tag of the body's bytes (length and SHA-1), as the previous HTTP layer gave. */
export function entityTag(body: string | Buffer): string {
  const digest = createHash('sha1').update(body).digest('base64').slice(0, 27);
  return `W/"${Buffer.byteLength(body).toString(16)}-${digest}"`;
}

/** If-None-Match against a tag, by weak comparison (the W/ prefix is ignored on both sides). */
function matchesAny(ifNoneMatch: string, tag: string): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (candidate: string) => candidate.trim().replace(/^W\//, '');
  const wanted = opaque(tag);
  return ifNoneMatch.split(',').some((candidate) => opaque(candidate) === wanted);
}

/**
 * onSend hook: a 200 answer to GET or HEAD of a revalidated type gets an
 * ETag, and becomes a 304 without a body when the request already holds
 * that tag. Added on the root instance, it runs before the compression of
 * the route, so the tag names the body, whatever encoding is sent.
 */
export async function tagRevalidatedPages(req: FastifyRequest, reply: FastifyReply, payload: unknown): Promise<unknown> {
  if ((req.method !== 'GET' && req.method !== 'HEAD') || reply.statusCode !== 200) return payload;
  if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
  if (reply.hasHeader('etag') || !REVALIDATED_TYPE.test(String(reply.getHeader('content-type') ?? ''))) return payload;
  const tag = entityTag(payload);
  reply.header('etag', tag);
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch === undefined || !matchesAny(ifNoneMatch, tag)) return payload;
  reply.code(304);
  return null;
}
