import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { z } from 'zod';
import { roleRefusal } from '@cronbeam/shared/accounts/account-messages';
import { JOB_TIMEOUT_CAP_SECONDS, jobDefinitionSchema, schedulePreviewSchema } from '@cronbeam/shared/jobs/job-rules';
import { jobImportRequestSchema } from '@cronbeam/shared/jobs/job-transfer';
import { PUBLIC_API_SCHEMAS } from '@cronbeam/shared/jobs/openapi-schemas';
import { monitorSchema } from '@cronbeam/shared/notifications/monitors';
import type { AppConfig } from '../../config/app-config';
import { AdminTokenGuard } from '../admin/admin-token.guard';
import { ApiKeyGuard } from '../api-keys/api-key.guard';
import type { RouteRole } from '../auth/account-role.guard';
import { BearerAuthGuard } from '../auth/bearer-auth.guard';
import { RecentAuthenticationGuard } from '../auth/recent-authentication.guard';
import { BillingEnabledGuard } from '../billing/billing-enabled.guard';
import { jobBulkRequestSchema } from '../jobs';
import { DASHBOARD_OPERATIONS } from './dashboard-operations';
import { routeFacts, type RouteFacts } from './openapi-routes';
import { requestSchema, withLimitsOf } from './openapi-zod';
import { BULK_REQUEST_SCHEMA, VALIDATION_EXAMPLE } from './prog-examples';
import { addPingDocs, monitorSchemas } from './prog-monitors-docs';
import { statusSchemas } from './prog-status-docs';
import { maintenanceSchemas } from './prog-maintenance-docs';
import { auditSchemas } from './prog-audit-docs';
import { ProgModule } from './prog.module';

/** What the documents need to know of the server's settings: the limits it enforces beyond the shared rules. */
export interface OpenApiSettings {
  /** The longest timeout_seconds a job may ask for here: the executor's own limit (EXECUTION_TIMEOUT_MS). */
  maxTimeoutSeconds: number;
}

export function openApiSettings(config: AppConfig): OpenApiSettings {
  return { maxTimeoutSeconds: Math.min(JOB_TIMEOUT_CAP_SECONDS, Math.floor(config.env.EXECUTION_TIMEOUT_MS / 1000)) };
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: object, example?: unknown) => ({ 'application/json': example === undefined ? { schema } : { schema, example } });
const messageResponse = (description: string, detail?: string): ResponseObject => ({ description, content: json(ref('MessageError'), detail === undefined ? undefined : { detail }) });
const tooMany = (description: string): ResponseObject => ({
  description: `${description}; wait Retry-After seconds`,
  headers: { 'Retry-After': { description: 'Seconds to wait', schema: { type: 'integer' } } },
  content: json(ref('MessageError')),
});

/**
 * The shared schemas both documents declare. The job definition's limits are
 * the server's: those of the zod rules it validates with, and its own
 * request time limit.
 */
function componentSchemas(settings: OpenApiSettings): Record<string, SchemaObject> {
  // The shared schemas use readonly arrays (they are constants); the document gets its own mutable copy.
  const schemas = structuredClone(PUBLIC_API_SCHEMAS) as unknown as Record<string, SchemaObject & { properties: Record<string, SchemaObject> }>;
  const definition = withLimitsOf(schemas.JobDefinition, jobDefinitionSchema);
  definition.properties.timeout_seconds = { ...definition.properties.timeout_seconds, maximum: settings.maxTimeoutSeconds };
  return { ...schemas, JobDefinition: definition, ...(monitorSchemas() as Record<string, SchemaObject>), ...(statusSchemas() as Record<string, SchemaObject>), ...(maintenanceSchemas() as Record<string, SchemaObject>), ...(auditSchemas() as Record<string, SchemaObject>) };
}

/** Guards that authenticate a caller, with the security scheme each stands for and its 401. */
const AUTHENTICATING_GUARDS = new Map<unknown, { scheme: string; unauthorized: string }>([
  [BearerAuthGuard, { scheme: 'Session', unauthorized: 'Missing, expired or revoked access token' }],
  [AdminTokenGuard, { scheme: 'AdminToken', unauthorized: 'Missing or wrong operator token' }],
  [ApiKeyGuard, { scheme: 'ApiKey', unauthorized: 'Missing, unknown or mismatched key and user id' }],
]);

/** Request bodies that are documented components rather than spelled out at each operation. */
const BODY_COMPONENTS = new Map<z.ZodType, object>([
  [jobDefinitionSchema, ref('JobDefinition')],
  [jobImportRequestSchema, ref('JobImportRequest')],
  [schedulePreviewSchema, ref('SchedulePreviewRequest')],
  [jobBulkRequestSchema, BULK_REQUEST_SCHEMA],
  [monitorSchema, ref('MonitorDefinition')],
]);

const invalidFields: ResponseObject = { description: 'A field is invalid; each entry names the field and the reason', content: json(ref('ValidationError'), VALIDATION_EXAMPLE) };

type Operation = OperationObject & { security?: Array<Record<string, string[]>> };

/**
 * Completes an operation from what the server does with the route: the
 * security its guards ask for (none: a public operation), the request body
 * and query its schemas validate, and the refusals those imply (401, 403 for
 * a stale sign-in, 404 for an id not found among the caller's, 422 for a
 * request its schema refuses, 503 where billing is off). What a decorator
 * already documented is kept.
 */
/**
 * The least role in the account the operation needs (`x-minimum-role`:
 * owner, admin, editor, viewer, or user for an operation about the caller
 * themself rather than an account), and the 403 of a lower one.
 */
function describeRole(operation: Operation, role: RouteRole): void {
  Object.assign(operation, { 'x-minimum-role': role });
  if (role === 'user' || role === 'viewer') return;
  const responses = operation.responses as Record<string, ResponseObject>;
  const refused = `The caller's role in the account is below ${role}`;
  const earlier = responses[403];
  responses[403] = earlier ? { ...earlier, description: `${earlier.description}; or ${refused.charAt(0).toLowerCase()}${refused.slice(1)}` } : messageResponse(refused, roleRefusal('viewer'));
}

function documentFromRoute(operation: Operation, path: string, facts: RouteFacts | undefined): void {
  const responses = operation.responses as Record<string, ResponseObject>;
  const add = (status: number, response: ResponseObject) => (responses[status] ??= response);
  const guards = facts?.guards ?? [];
  const authenticating = guards.map((guard) => AUTHENTICATING_GUARDS.get(guard)).filter((g) => g !== undefined);
  if (authenticating.length === 0) operation.security = [];
  else if (!operation.security) operation.security = authenticating.map((g) => ({ [g.scheme]: [] }));
  for (const guard of authenticating) add(401, messageResponse(guard.unauthorized));
  if (guards.includes(RecentAuthenticationGuard)) add(403, { description: 'The last sign-in is too old: confirm the password (POST /api/auth/reauthenticate) and retry', content: json({ type: 'object', properties: { detail: { type: 'object' } } }) });
  // The role guard ends the bearer and API-key guards; the operator's token acts in no account.
  if (facts && guards.some((guard) => guard === BearerAuthGuard || guard === ApiKeyGuard)) describeRole(operation, facts.role);
  if (guards.includes(AdminTokenGuard)) add(404, messageResponse('No operator token is configured on this server, or what the path names does not exist'));
  if (guards.includes(BillingEnabledGuard)) add(503, messageResponse('Billing is not configured on this server'));
  if (path.includes('{')) add(404, messageResponse('Not found among yours'));
  if (facts?.body && !operation.requestBody) {
    operation.requestBody = { required: !facts.body.safeParse(undefined).success, content: json(BODY_COMPONENTS.get(facts.body) ?? requestSchema(facts.body)) };
  }
  if (facts?.query) {
    const query = requestSchema(facts.query) as { properties?: Record<string, SchemaObject>; required?: string[] };
    const documented = new Set((operation.parameters as ParameterObject[] | undefined)?.map((p) => p.name));
    const parameters = Object.entries(query.properties ?? {})
      .filter(([name]) => !documented.has(name))
      .map(([name, schema]): ParameterObject => ({ name, in: 'query', required: query.required?.includes(name) ?? false, schema }));
    operation.parameters = [...(operation.parameters ?? []), ...parameters];
  }
  if (facts?.body || facts?.query) add(422, invalidFields);
}

function documentRoutes(app: INestApplication, document: OpenAPIObject, also: (key: string, operation: Operation) => void = () => undefined): void {
  const facts = routeFacts(app);
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations as Record<string, Operation>)) {
      also(`${method} ${path}`, operation);
      documentFromRoute(operation, path, facts.get(`${method} ${path}`));
    }
  }
}

/** The OpenAPI 3 document of the /prog API, generated from the controller's decorators and the shared schemas. */
export function buildProgOpenApi(app: INestApplication, settings: OpenApiSettings): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Cronbeam public API')
    .setDescription(
      'Schedule HTTP requests on 5-field cron expressions, read in each job’s time_zone (UTC by default). Authenticate every call except /prog/ping and the ping URLs (/ping/{token}) with ' +
        '`X-API-Key` and `X-User-ID` (both from the API Keys section of your profile), or with `Authorization: Bearer <API key>`. ' +
        'Errors answer `{"detail": ...}`.',
    )
    .setVersion('1.0')
    .addServer('/')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-Key' }, 'ApiKey')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'API key', description: 'Your API key as a bearer token' }, 'BearerApiKey')
    .build();
  const document = SwaggerModule.createDocument(app, config, { include: [ProgModule] });
  documentRoutes(app, document);
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...componentSchemas(settings) } };
  addPingDocs(document);
  return document;
}

/**
 * The OpenAPI 3 document of the dashboard API (/api), generated from the same
 * controllers: every /api route with the security, bodies and refusals its
 * guards and schemas imply, and the summaries and service refusals of
 * DASHBOARD_OPERATIONS.
 */
export function buildDashboardOpenApi(app: INestApplication, settings: OpenApiSettings): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Cronbeam dashboard API')
    .setDescription(
      'The API of the web app and the desktop app: a session access token as `Authorization: Bearer <token>` (from /api/auth/login). ' +
        'A request acts in the account named by the `X-Cronbeam-Account` header (absent: your personal account), within your role there (`x-minimum-role` of each operation). ' +
        'Operations without security are public. Errors answer `{"detail": ...}`.',
    )
    .setVersion('1.0')
    .addServer('/')
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Session access token from /api/auth/login' }, 'Session')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-Admin-Token', description: "The operator's ADMIN_TOKEN" }, 'AdminToken')
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => path.startsWith('/api/')));
  documentRoutes(app, document, (key, operation) => {
    const described = DASHBOARD_OPERATIONS[key];
    if (!described) return;
    operation.summary ??= described.summary;
    if (described.body) operation.requestBody = { required: true, content: json(described.body.schema) };
    if (described.body?.checkedByHandler) (operation.responses as Record<string, ResponseObject>)[422] ??= invalidFields;
    for (const [status, when] of Object.entries(described.errors ?? {})) (operation.responses as Record<string, ResponseObject>)[status] ??= messageResponse(when);
    if (described.limited) (operation.responses as Record<string, ResponseObject>)[429] ??= tooMany(`Too many requests: ${described.limited}`);
  });
  document.components = { ...document.components, schemas: { ...document.components?.schemas, ...componentSchemas(settings) } };
  return document;
}

/** Serves the /prog document at /prog/openapi.json (reference at /prog/docs) and the dashboard API's at /api/openapi.json. */
export function mountProgApiDocs(app: INestApplication, settings: OpenApiSettings): void {
  SwaggerModule.setup('prog/docs', app, () => buildProgOpenApi(app, settings), {
    jsonDocumentUrl: 'prog/openapi.json',
    yamlDocumentUrl: 'prog/openapi.yaml',
    customSiteTitle: 'Cronbeam API reference',
  });
  let dashboardDocument: OpenAPIObject | null = null;
  app.getHttpAdapter().get('/api/openapi.json', (_req: unknown, reply: { send(body: unknown): void }) => {
    dashboardDocument ??= buildDashboardOpenApi(app, settings);
    reply.send(dashboardDocument);
  });
}
