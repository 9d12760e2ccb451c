import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import compression from 'compression';
import { json, raw } from 'express';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { answerClientErrors } from './common/http/client-errors';
import { HttpDrain } from './common/http/http-drain';
import { expressErrorHandler } from './common/http/http-error.filter';
import { JsonReplyAdapter } from './common/http/json-reply-adapter';
import { securityHeaders } from './common/http/security-headers';
import { NestPinoLogger } from './common/logging/nest-logger';
import { requestLogger } from './common/logging/request-logger';
import { createRootLogger } from './common/logging/root-logger';
import { refuseUnacceptableText } from './common/validation/request-text';
import type { AppConfig } from './config/app-config';
import type { ShutdownBudget } from './config/shutdown-budget';
import { STRIPE_WEBHOOK_PATH } from './modules/billing/billing-webhook.controller';
import { JOB_BULK_BODY_LIMIT, JOB_BULK_PATHS } from './modules/jobs';
import { mountProgApiDocs, openApiSettings } from './modules/prog/prog-openapi';
import { RunsService } from './modules/runs/runs.service';
import { SchedulerStopService } from './modules/scheduler/scheduler-stop.service';
import { mountWebApp } from './web/web-app';
import { PublicStatusService } from './modules/status-pages/public-status.service';

/** Largest accepted JSON body; larger ones answer 413. A job body is capped at 64 KiB by validation. */
export const JSON_BODY_LIMIT = '256kb';

/** Each application's HTTP drain, for stopGracefully. */
const drains = new WeakMap<NestExpressApplication, HttpDrain>();

export interface CreateAppOptions {
  databaseUrl: string;
  /** Where JSON log lines go (stdout by default; tests capture them). */
  logDestination?: DestinationStream;
}

/** Builds the Nest application with its HTTP middleware; the caller listens and closes it. */
export async function createApp(config: AppConfig, options: CreateAppOptions): Promise<NestExpressApplication> {
  const logger = createRootLogger(config, options.logDestination);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, databaseUrl: options.databaseUrl }), new JsonReplyAdapter(), {
    logger: new NestPinoLogger(logger),
    abortOnError: false,
    bodyParser: false,
  });
  // First, so that every request is logged with its id, including those the body parser refuses.
  app.use(requestLogger(logger));
  const drain = new HttpDrain();
  drains.set(app, drain);
  app.set('trust proxy', config.env.TRUST_PROXY);
  app.disable('x-powered-by');
  // Before anything that can answer, so that error responses carry the headers too.
  app.use(securityHeaders(config));
  answerClientErrors(app.getHttpServer());
  // Before the routes and the body parsers: while stopping, nothing new is started (503).
  app.use(drain.middleware, expressErrorHandler);
  // Stripe signs the exact bytes it sends: its webhook gets them unparsed (json() then skips the request).
  app.use(STRIPE_WEBHOOK_PATH, raw({ type: () => true, limit: JSON_BODY_LIMIT }), expressErrorHandler);
  // Bulk creation takes up to a thousand definitions in one body.
  app.use([...JOB_BULK_PATHS], json({ limit: JOB_BULK_BODY_LIMIT }), expressErrorHandler);
  app.use(json({ limit: JSON_BODY_LIMIT }), expressErrorHandler);
  app.use(refuseUnacceptableText, expressErrorHandler);
  app.use(cookieParser());
  mountProgApiDocs(app, openApiSettings(config));
  // A status page's custom domain answers with the page, not the site (ahead of the web app).
  app.use(app.get(PublicStatusService).customDomains());
  // Status pages are HTML of 90 bars per item: compressed, a 50-item page goes from ~300 KB to a few dozen.
  app.use('/status', compression());
  mountWebApp(app.getHttpAdapter().getInstance(), config);
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
export async function stopGracefully(app: NestExpressApplication, budget: ShutdownBudget): Promise<number> {
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
