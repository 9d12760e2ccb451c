import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../backend/src/app.module';
import { AppConfig } from '../backend/src/config/app-config';
import { buildProgOpenApi } from '../backend/src/modules/prog/prog-openapi';

/**
 * Prints the OpenAPI document of /prog, exactly as the server serves it at
 * /prog/openapi.json, for the build of the /api-documentation page. Nest's
 * preview mode builds the module graph without creating providers, so no
 * database is needed (the URL below is never connected to). Production mode
 * (the document as production serves it) requires a public URL and a master
 * key: placeholders, since nothing is served, signed or decrypted here.
 */
async function main(): Promise<void> {
  const config = AppConfig.fromEnvironment({
    NODE_ENV: 'production',
    SCHEDULER_ENABLED: 'false',
    PUBLIC_URL: 'https://openapi-export.invalid',
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
  });
  const app = await NestFactory.create(AppModule.forRoot({ config, databaseUrl: 'postgres://openapi-export@127.0.0.1:1/none' }), {
    preview: true,
    logger: false,
    abortOnError: false,
  });
  process.stdout.write(`${JSON.stringify(buildProgOpenApi(app), null, 2)}\n`);
  await app.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
