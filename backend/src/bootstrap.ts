import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { json } from 'express';
import { Logger } from 'nestjs-pino';
import type { DestinationStream } from 'pino';
import { AppModule } from './app.module';
import { expressErrorHandler } from './common/http/http-error.filter';
import type { AppConfig } from './config/app-config';
import { mountProgApiDocs } from './modules/prog/prog-openapi';
import { mountWebApp } from './web/web-app';

/** Largest accepted JSON body; larger ones answer 413. A job body is capped at 64 KiB by validation. */
export const JSON_BODY_LIMIT = '256kb';

export interface CreateAppOptions {
  databaseUrl: string;
  logDestination?: DestinationStream;
}

/** Builds the Nest application with its HTTP middleware; the caller listens and closes it. */
export async function createApp(config: AppConfig, options: CreateAppOptions): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule.forRoot({ config, databaseUrl: options.databaseUrl, logDestination: options.logDestination }),
    { bufferLogs: true, abortOnError: false, bodyParser: false },
  );
  app.useLogger(app.get(Logger));
  app.flushLogs();
  app.set('trust proxy', config.env.TRUST_PROXY);
  app.disable('x-powered-by');
  app.use(json({ limit: JSON_BODY_LIMIT }), expressErrorHandler);
  app.use(cookieParser());
  mountProgApiDocs(app);
  mountWebApp(app.getHttpAdapter().getInstance(), config.webDistDir);
  return app;
}
