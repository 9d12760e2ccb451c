import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import type { OpenAPIObject } from '@nestjs/swagger';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from '../backend/src/app.module';
import { AppConfig } from '../backend/src/config/app-config';
import { buildDashboardOpenApi, buildProgOpenApi, openApiSettings } from '../backend/src/modules/prog/prog-openapi';

/**
 * Both OpenAPI documents exactly as the server serves them (/prog/openapi.json
 * and /api/openapi.json). Nest's preview mode builds the module graph without
 * creating providers, so no database is needed (the URL below is never
 * connected to). Production mode (the documents as production serves them)
 * requires a public URL and a master key: placeholders, since nothing is
 * served, signed or decrypted here.
 */
export async function openApiDocuments(): Promise<{ prog: OpenAPIObject; api: OpenAPIObject }> {
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'production',
    SCHEDULER_ENABLED: 'false',
    PUBLIC_URL: 'https://openapi-export.invalid',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  const app = await NestFactory.create(AppModule.forRoot({ config, databaseUrl: 'postgres://openapi-export@127.0.0.1:1/none' }), new FastifyAdapter(), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  try {
    const settings = openApiSettings(config);
    return { prog: buildProgOpenApi(app, settings), api: buildDashboardOpenApi(app, settings) };
  } finally {
    await app.close();
  }
}
