import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { z } from 'zod';
import { loginSchema, signUpSchema, verifyEmailSchema } from '@shared/auth/auth-schemas';
import { PUBLIC_API_SCHEMAS } from '@shared/jobs/openapi-schemas';
import { alertChannelSchema, alertChannelVerificationSchema } from '@shared/notifications/alert-channels';
import { monitorSchema } from '@shared/notifications/monitors';
import { BULK_REQUEST_SCHEMA } from './prog-examples';
import { addMonitorDocs } from './prog-monitors-docs';
import { ProgModule } from './prog.module';

/** The OpenAPI 3 document of the /prog API, generated from the controller's decorators and the shared schemas. */
export function buildProgOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Cronbeam public API')
    .setDescription(
      'Schedule HTTP requests on 5-field cron expressions, read in each job’s time_zone (UTC by default). Authenticate every call except /prog/ping and the ping URLs (/ping/{token}) with ' +
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
  addMonitorDocs(document);
  return document;
}

type Operation = { requestBody?: unknown };

/** Request bodies of the dashboard API, from the shared rules the server validates them with. */
const API_BODIES: Record<string, () => unknown> = {
  'post /api/auth/signup': () => z.toJSONSchema(signUpSchema, { io: 'input', target: 'openapi-3.0' }),
  'post /api/auth/login': () => z.toJSONSchema(loginSchema, { io: 'input', target: 'openapi-3.0' }),
  'post /api/auth/verify': () => z.toJSONSchema(verifyEmailSchema, { io: 'input', target: 'openapi-3.0' }),
  'post /api/jobs': () => ({ $ref: '#/components/schemas/JobDefinition' }),
  'put /api/jobs/{id}': () => ({ $ref: '#/components/schemas/JobDefinition' }),
  'post /api/jobs/import': () => ({ $ref: '#/components/schemas/JobImportRequest' }),
  'post /api/jobs/bulk': () => BULK_REQUEST_SCHEMA,
  'post /api/monitors': () => z.toJSONSchema(monitorSchema, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' }),
  'put /api/monitors/{id}': () => z.toJSONSchema(monitorSchema, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' }),
  'post /api/alert-channels': () => z.toJSONSchema(alertChannelSchema, { io: 'input', target: 'openapi-3.0' }),
  'post /api/alert-channel-verifications': () => z.toJSONSchema(alertChannelVerificationSchema, { io: 'input', target: 'openapi-3.0' }),
};

/**
 * The OpenAPI 3 document of the dashboard API (/api, bearer session token),
 * generated from the same controllers: every /api route, the shared schemas,
 * and request bodies from the shared rules where one is listed above.
 */
export function buildDashboardOpenApi(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Cronbeam dashboard API')
    .setDescription('The API of the web app and the desktop app: a session access token as `Authorization: Bearer <token>`. Errors answer `{"detail": ...}`.')
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Session access token from /api/auth/login' }, 'Session')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => path.startsWith('/api/')));
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations as Record<string, Operation>)) {
      const body = API_BODIES[`${method} ${path}`];
      if (body) operation.requestBody = { required: true, content: { 'application/json': { schema: body() } } };
    }
  }
  const schemas = structuredClone(PUBLIC_API_SCHEMAS) as unknown as Record<string, SchemaObject>;
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...schemas } };
  document.security = [{ Session: [] }];
  return document;
}

/** Serves the /prog document at /prog/openapi.json (reference at /prog/docs) and the dashboard API's at /api/openapi.json. */
export function mountProgApiDocs(app: INestApplication): void {
  SwaggerModule.setup('prog/docs', app, () => buildProgOpenApi(app), {
    jsonDocumentUrl: 'prog/openapi.json',
    yamlDocumentUrl: 'prog/openapi.yaml',
    customSiteTitle: 'Cronbeam API reference',
  });
  let dashboardDocument: OpenAPIObject | null = null;
  app.getHttpAdapter().get('/api/openapi.json', (_req: unknown, res: { json(body: unknown): void }) => {
    dashboardDocument ??= buildDashboardOpenApi(app);
    res.json(dashboardDocument);
  });
}
