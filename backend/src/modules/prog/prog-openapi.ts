import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { PUBLIC_API_SCHEMAS } from '@shared/jobs/openapi-schemas';
import { ProgModule } from './prog.module';

/** The OpenAPI 3 document of the /prog API, generated from the controller's decorators and the shared schemas. */
export function buildProgOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Cronbeam public API')
    .setDescription(
      'Schedule HTTP requests on 5-field cron expressions, read in each job’s time_zone (UTC by default). Authenticate every call except /prog/ping with ' +
        '`X-API-Key` and `X-User-ID` (both from the API Keys section of your profile), or with `Authorization: Bearer <API key>`. ' +
        'Errors answer `{"detail": ...}`.',
    )
    .setVersion('1.0')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'ApiKey')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'Your API key as a bearer token' }, 'BearerApiKey')
    .build();
  const document = SwaggerModule.createDocument(app, config, { include: [ProgModule] });
  // The shared schemas use readonly arrays (they are constants); the document gets its own mutable copy.
  const schemas = structuredClone(PUBLIC_API_SCHEMAS) as unknown as Record<string, SchemaObject>;
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...schemas } };
  return document;
}

/** Serves the document at /prog/openapi.json and the interactive reference at /prog/docs. */
export function mountProgApiDocs(app: INestApplication): void {
  SwaggerModule.setup('prog/docs', app, () => buildProgOpenApi(app), {
    jsonDocumentUrl: 'prog/openapi.json',
    yamlDocumentUrl: 'prog/openapi.yaml',
    customSiteTitle: 'Cronbeam API reference',
  });
}
