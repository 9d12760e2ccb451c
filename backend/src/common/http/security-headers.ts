import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { AppConfig } from '../../config/app-config';

/** HSTS lifetime: a year, the usual floor for browsers' preload lists. */
const HSTS_MAX_AGE_SECONDS = 365 * 86_400;

/**
 * Browser security headers on every response (pages, assets, API, docs),
 * set by an onRequest hook on the raw response, so that errors carry them too.
 * Helmet decides them, once: its options name no per-request value, so the
 * headers it sets on a first response are the headers of every response, and
 * the hook sets that list (running helmet's dozen middlewares on every request
 * cost about a tenth of a ping; @fastify/helmet even rebuilt helmet per request).
 * The Content-Security-Policy allows scripts from this origin only: the web
 * app, the prerendered pages and Swagger UI load theirs from files (their
 * only inline scripts are JSON-LD data blocks, which browsers never run).
 * Inline styles stay allowed: React style attributes and Swagger UI's page
 * use them, and they cannot run code. Images may be data: URLs (the
 * two-factor QR code, Swagger UI's icons). No framing at all.
 * HSTS only when the service is reached over https: sending it from a plain
 * http origin would have no effect, and on localhost it would pin the
 * developer's browser to https.
 */
export function securityHeaders(config: AppConfig): (req: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void {
  const https = new URL(config.publicUrl).protocol === 'https:';
  const headers = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'"],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'none'"],
        ...(https ? { 'upgrade-insecure-requests': [] } : {}),
      },
    },
    strictTransportSecurity: https ? { maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The social sign-in and Stripe Checkout are full-page redirects; no window needs this one's opener.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // Other sites may not load responses as images or scripts; API clients calling with fetch are unaffected.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    crossOriginEmbedderPolicy: false,
  });
  const decided = headersSetBy(headers);
  return (_req, reply, done) => {
    const res = reply.raw;
    for (const [name, value] of decided) res.setHeader(name, value);
    done();
  };
}

/** The headers a middleware sets on a response, found by running it once on a stand-in that records them. */
function headersSetBy(middleware: ReturnType<typeof helmet>): Array<[string, string]> {
  const set = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: string) => set.set(name, String(value)),
    removeHeader: (name: string) => set.delete(name),
  };
  let failure: unknown;
  middleware({ headers: {} } as IncomingMessage, response as unknown as ServerResponse, (error?: unknown) => (failure = error));
  if (failure) throw failure;
  return [...set];
}
