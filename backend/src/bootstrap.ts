import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import fastifyCookie from '@fastify/cookie';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { answerClientError } from './common/http/client-errors';
import { tagRevalidatedPages } from './common/http/entity-tags';
import { HttpDrain } from './common/http/http-drain';
import { registerRequestBodies } from './common/http/request-body';
import { securityHeaders } from './common/http/security-headers';
import { NestPinoLogger } from './common/logging/nest-logger';
import { registerRequestLogging, requestIdFor } from './common/logging/request-logger';
import { createRootLogger } from './common/logging/root-logger';
import { refuseUnacceptableText } from './common/validation/request-text';
import type { AppConfig } from './config/app-config';
import type { ShutdownBudget } from './config/shutdown-budget';
import { STRIPE_WEBHOOK_PATH } from './modules/billing/billing-webhook.controller';
import { JOB_BULK_BODY_LIMIT, JOB_BULK_PATHS } from './modules/jobs';
import { mountProgApiDocs, openApiSettings } from './modules/prog/prog-openapi';
import { RunsService } from './modules/runs/runs.service';
import { SchedulerStopService } from './modules/scheduler/scheduler-stop.service';
import { registerCompression, mountWebApp } from './web/web-app';
import { PublicStatusService } from './modules/status-pages/public-status.service';

/** Largest accepted JSON body in bytes (256 KiB); larger ones answer 413. A job body is capped at 64 KiB by validation. */
export const JSON_BODY_LIMIT = 256 * 1024;

/** Node's own limit on a request's whole time (its default; Fastify's is none), after which the client gets a 408. */
const REQUEST_TIMEOUT_MS = 300_000;
/** Node's default idle time of a kept-alive connection (Fastify's is 72 s). */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** Longest path parameter: Fastify answers 404 past its default of 100 characters; request heads are capped at 16 KB anyway. */
const MAX_PARAM_LENGTH = 16 * 1024;

/** Each application's HTTP drain, for stopGracefully. */
const drains = new WeakMap<NestFastifyApplication, HttpDrain>();

export interface CreateAppOptions {
  databaseUrl: string;
  /** Where JSON log lines go (stdout by default; tests capture them). */
  logDestination?: DestinationStream;
}

/** Builds the Nest application on Fastify with its request hooks; the caller listens and closes it. */
export async function createApp(config: AppConfig, options: CreateAppOptions): Promise<NestFastifyApplication> {
  const logger = createRootLogger(config, options.logDestination);
  const adapter = new FastifyAdapter({
    trustProxy: config.env.TRUST_PROXY,
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: Math.max(JSON_BODY_LIMIT, JOB_BULK_BODY_LIMIT),
    clientErrorHandler: answerClientError,
    requestTimeout: REQUEST_TIMEOUT_MS,
    keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
    // Routing as before: /API/jobs and /api/jobs/ reach /api/jobs.
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // No Nest middleware is mounted (every edge step below is a hook).
    skipMiddie: true,
    // While the app closes, the drain's hook answers (503 with a {"detail"} body), not Fastify's own 503.
    return503OnClosing: false,
  });
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot({ config, databaseUrl: options.databaseUrl }), adapter, {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    bodyParser: false,
  });
  const fastify = app.getHttpAdapter().getInstance();
  // First, so that every request is logged with its id, including those the body parser refuses.
  registerRequestLogging(fastify, logger);
  // Before anything that can answer, so that error responses carry the headers too.
  fastify.addHook('onRequest', securityHeaders(config));
  // Before the routes and the body parser: while stopping, nothing new is started (503).
  const drain = new HttpDrain();
  drains.set(app, drain);
  fastify.addHook('onRequest', drain.hook);
  registerRequestBodies(fastify, {
    default: JSON_BODY_LIMIT,
    // Bulk creation takes up to a thousand definitions in one body.
    larger: [{ paths: JOB_BULK_PATHS, limit: JOB_BULK_BODY_LIMIT }],
    // Stripe signs the exact bytes it sends: its webhook gets them unparsed.
    rawPaths: [STRIPE_WEBHOOK_PATH],
  });
  fastify.addHook('preValidation', refuseUnacceptableText);
  await app.register(fastifyCookie);
  // Pages, status pages and badges are revalidated by their ETag (a 304 instead of the page again).
  fastify.addHook('onSend', tagRevalidatedPages);
  // Before any route exists: which routes answer compressed is decided as each is added.
  await registerCompression(fastify);
  mountProgApiDocs(app, openApiSettings(config));
  // A status page's custom domain answers with the page, not the site.
  fastify.addHook('onRequest', app.get(PublicStatusService).customDomains(config));
  await mountWebApp(fastify, config);
  return app;
}

const sleepUntil = (deadline: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - performance.now())));

/**
 * A graceful stop (ADR 0127), before `app.close()`: new requests answer 503
 * at once and the scheduler claims nothing more and hands back the runs it
 * has not sent; requests already sent (scheduled and "run now") run until
 * they end or the budget's share for them runs out, when the rest are
 * recorded as interrupted; every result is stored, every API call taken
 * before the stop is answered, and the event streams left are closed.
 * Answers how many executions were interrupted.
 */
export async function stopGracefully(app: NestFastifyApplication, budget: ShutdownBudget): Promise<number> {
  const started = performance.now();
  const drain = drains.get(app);
  if (!drain) throw new Error('stopGracefully: not an application made by createApp');
  drain.refuseNew();
  const scheduler = app.get(SchedulerStopService);
  const runs = app.get(RunsService);
  await scheduler.stopClaiming();
  await Promise.race([runs.executionsIdle(), sleepUntil(started + budget.executionsMs)]);
  const interrupted = runs.interruptExecutions();
  await scheduler.executionsHandedOver();
  await runs.drain();
  await drain.settled(started + budget.totalMs);
  // Only event streams (and idle keep-alive connections) are left; the server cannot close while they are open.
  app.getHttpServer().closeAllConnections();
  return interrupted;
}
