import { StreamableFile } from '@nestjs/common';
import { ExpressAdapter } from '@nestjs/platform-express';
import type { Response } from 'express';

/**
 * Nest's Express adapter, except that a handler's JSON value is written
 * straight to the response: serialized once, with its type and length.
 *
 * Express's res.json() (what the stock adapter calls) also parses the
 * Content-Type it has just set to add a charset, and hashes the whole body
 * into an ETag to answer a matching If-None-Match with 304. API responses
 * are live data that clients re-read rather than revalidate, so the hash was
 * paid on every response for nothing: the two were a twentieth of a listed
 * jobs request's CPU (docs/adr/0110-api-throughput.md). The pages and assets
 * of the web app keep their ETags (express.static and res.send are untouched).
 *
 * Anything else (no body, text, files, streams, errors, a handler that chose
 * its own Content-Type) goes through the stock adapter unchanged.
 */
export class JsonReplyAdapter extends ExpressAdapter {
  override reply(response: Response, body: unknown, statusCode?: number): unknown {
    if (body === null || typeof body !== 'object' || body instanceof StreamableFile || body instanceof Error || response.getHeader('Content-Type') !== undefined) {
      return super.reply(response, body, statusCode);
    }
    const json = JSON.stringify(body);
    if (statusCode) response.statusCode = statusCode;
    response.setHeader('Content-Type', 'application/json; charset=utf-8');
    response.setHeader('Content-Length', Buffer.byteLength(json));
    response.end(json);
    return response;
  }
}
