import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { HttpStatus } from '@nestjs/common';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './api-error';
import { requestPath } from './route-prefixes';

export const REQUEST_BODY_MESSAGES = {
  tooLarge: 'Request body is too large',
  badEncoding: 'Request body does not decode as its Content-Encoding says',
  unsupportedEncoding: 'Unsupported request body encoding',
  truncated: 'Request body is shorter than its Content-Length',
} as const;

export interface RequestBodyLimits {
  /** Largest body (after decoding) of any route not listed below, in bytes. */
  default: number;
  /** Routes (exact paths) that take a larger body, with their limit. */
  larger: ReadonlyArray<{ paths: readonly string[]; limit: number }>;
  /** Routes whose handler gets the exact bytes as a Buffer, whatever the Content-Type (signed webhooks). */
  rawPaths: readonly string[];
}

const DECODERS: Record<string, (() => NodeJS.ReadWriteStream) | null> = {
  identity: null,
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};


/**
 * The whole body, decoded as its Content-Encoding says, refused past `limit`
 * bytes (at once when the Content-Length already says so). A body that does
 * not decode or ends early is the client's fault (400), as is an encoding
 * nobody can decode (415).
 */
function readBody(raw: IncomingMessage, payload: Readable, limit: number): Promise<Buffer> {
  const encoding = (raw.headers['content-encoding'] ?? 'identity').toLowerCase();
  if (!(encoding in DECODERS)) return Promise.reject(new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, REQUEST_BODY_MESSAGES.unsupportedEncoding));
  const decoder = DECODERS[encoding];
  const declared = raw.headers['content-length'] === undefined ? null : Number(raw.headers['content-length']);
  if (decoder === null && declared !== null && declared > limit) {
    payload.resume();
    return Promise.reject(new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, REQUEST_BODY_MESSAGES.tooLarge));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;
    const fail = (error: ApiError) => {
      if (settled) return;
      settled = true;
      payload.unpipe();
      payload.resume();
      reject(error);
    };
    // The request stream ends early (the client closed the connection) or carries an error of Node's parser.
    payload.on('aborted', () => fail(new ApiError(HttpStatus.BAD_REQUEST, REQUEST_BODY_MESSAGES.truncated)));
    payload.on('error', () => fail(new ApiError(HttpStatus.BAD_REQUEST, REQUEST_BODY_MESSAGES.truncated)));
    const source: Readable = decoder ? payload.pipe(decoder() as unknown as NodeJS.WritableStream & Readable) : payload;
    if (decoder) source.on('error', () => fail(new ApiError(HttpStatus.BAD_REQUEST, REQUEST_BODY_MESSAGES.badEncoding)));
    source.on('data', (chunk: Buffer) => {
      if (settled) return;
      received += chunk.length;
      if (received > limit) return fail(new ApiError(HttpStatus.PAYLOAD_TOO_LARGE, REQUEST_BODY_MESSAGES.tooLarge));
      chunks.push(chunk);
    });
    source.on('end', () => {
      if (settled) return;
      if (!raw.complete) return fail(new ApiError(HttpStatus.BAD_REQUEST, decoder ? REQUEST_BODY_MESSAGES.badEncoding : REQUEST_BODY_MESSAGES.truncated));
      settled = true;
      resolve(Buffer.concat(chunks));
    });
  });
}

/** `application/json` with an optional charset (no `+json` types, as before). */
function isJson(contentType: string | undefined): boolean {
  return contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType.trim());
}

function charsetOf(contentType: string): string | null {
  return /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType)?.[1]?.toLowerCase() ?? null;
}

/** A body that is not JSON, or a JSON scalar (only objects and arrays are request bodies). */
function parseFailed(): ApiError {
  return ApiError.validation([{ loc: ['body'], msg: 'Request body is not valid JSON', type: 'json_invalid' }]);
}

function parseJson(bytes: Buffer, contentType: string): unknown {
  if (bytes.length === 0) return {};
  const charset = charsetOf(contentType) ?? 'utf-8';
  let text: string;
  try {
    if (!charset.startsWith('utf-')) throw new RangeError(charset);
    text = new TextDecoder(charset, { fatal: false }).decode(bytes);
  } catch {
    throw new ApiError(HttpStatus.UNSUPPORTED_MEDIA_TYPE, REQUEST_BODY_MESSAGES.unsupportedEncoding);
  }
  const first = /^[\s\uFEFF]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw parseFailed();
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    throw parseFailed();
  }
}

/**
 * Request bodies: JSON (`application/json`) is parsed into the handler's
 * body, within the route's limit (413 past it, 422 for text that is not a
 * JSON object or array); the raw paths get the exact bytes; any other type
 * is left unread and the handler sees no body (its validation answers).
 * Fastify's own parsers are replaced: they answer 415 for every other type,
 * 400 for an empty JSON body, and do not decode a Content-Encoding.
 */
export function registerRequestBodies(fastify: FastifyInstance, limits: RequestBodyLimits): void {
  const limitOf = (path: string) => limits.larger.find((route) => route.paths.includes(path))?.limit ?? limits.default;
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload: IncomingMessage, done: (err: Error | null, body?: unknown) => void) => {
    const path = requestPath(request.url);
    const contentType = request.headers['content-type'];
    if (limits.rawPaths.includes(path)) {
      readBody(request.raw, payload, limitOf(path)).then((bytes) => done(null, bytes), (error: Error) => done(error));
      return;
    }
    if (!isJson(contentType)) {
      done(null, undefined);
      return;
    }
    readBody(request.raw, payload, limitOf(path)).then(
      (bytes) => {
        let body: unknown;
        try {
          body = parseJson(bytes, contentType!);
        } catch (error) {
          done(error as Error);
          return;
        }
        done(null, body);
      },
      (error: Error) => done(error),
    );
  });
}
