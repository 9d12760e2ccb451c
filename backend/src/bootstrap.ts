import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { json, raw } from 'express';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { answerClientErrors } from './common/http/client-errors';
import { expressErrorHandler } from './common/http/http-error.filter';
import { JsonReplyAdapter } from './common/http/json-reply-adapter';
import { securityHeaders } from './common/http/security-headers';
import { NestPinoLogger } from './common/logging/nest-logger';
import { requestLogger } from './common/logging/request-logger';
import { createRootLogger } from './common/logging/root-logger';
import { refuseUnacceptableText } from './common/validation/request-text';
import type { AppConfig } from './config/app-config';
import { STRIPE_WEBHOOK_PATH } from './modules/billing/billing-webhook.controller';
import { JOB_BULK_BODY_LIMIT, JOB_BULK_PATHS } from './modules/jobs';
import { mountProgApiDocs } from './modules/prog/prog-openapi';
import { mountWebApp } from './web/web-app';

/** Largest accepted JSON body; larger ones answer 413. A job body is capped at 64 KiB by validation. */
export const JSON_BODY_LIMIT = '256kb';

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
  app.set('trust proxy', config.env.TRUST_PROXY);
  app.disable('x-powered-by');
  // Before anything that can answer, so that error responses carry the headers too.
  app.use(securityHeaders(config));
  answerClientErrors(app.getHttpServer());
  // Stripe signs the exact bytes it sends: its webhook gets them unparsed (json() then skips the request).
  app.use(STRIPE_WEBHOOK_PATH, raw({ type: () => true, limit: JSON_BODY_LIMIT }), expressErrorHandler);
  // Bulk creation takes up to a thousand definitions in one body.
  app.use([...JOB_BULK_PATHS], json({ limit: JOB_BULK_BODY_LIMIT }), expressErrorHandler);
  app.use(json({ limit: JSON_BODY_LIMIT }), expressErrorHandler);
  app.use(refuseUnacceptableText, expressErrorHandler);
  app.use(cookieParser());
  mountProgApiDocs(app);
  mountWebApp(app.getHttpAdapter().getInstance(), config);
  return app;
}
