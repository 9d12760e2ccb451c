import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import helmet from 'helmet';
import type { AppConfig } from '../../config/app-config';

/** HSTS lifetime: a year, the usual floor for browsers' preload lists. */
const HSTS_MAX_AGE_SECONDS = 365 * 86_400;

/**
 * Browser security headers on every response (pages, assets, API, docs),
 * set by an onRequest hook on the raw response, so that errors carry them too.
 * Helmet itself, made once: @fastify/helmet builds a new helmet middleware
 * from its options on every request.
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
  return (req, reply, done) => headers(req.raw, reply.raw, (error) => done(error as Error | undefined));
}
