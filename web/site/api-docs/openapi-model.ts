import document from 'virtual:cronbeam/prog-openapi';

/** The parts of an OpenAPI 3 document the documentation page reads. */
export interface SchemaObject {
  type?: string;
  $ref?: string;
  description?: string;
  enum?: readonly unknown[];
  format?: string;
  minLength?: number;
  maxLength?: number;
  maxProperties?: number;
  pattern?: string;
  default?: unknown;
  example?: unknown;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  required?: readonly string[];
  properties?: Record<string, SchemaObject>;
  items?: SchemaObject;
  additionalProperties?: SchemaObject | boolean;
}

interface MediaType {
  schema?: SchemaObject;
  example?: unknown;
  examples?: Record<string, { summary?: string; value: unknown }>;
}

export interface Operation {
  summary?: string;
  description?: string;
  operationId?: string;
  parameters?: Array<{ name: string; in: string; description?: string; required?: boolean }>;
  requestBody?: { content: Record<string, MediaType> };
  responses: Record<string, { description: string; content?: Record<string, MediaType> }>;
  security?: Array<Record<string, unknown>>;
}

export interface OpenApiDocument {
  info: { title: string; description?: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, SchemaObject>; securitySchemes?: Record<string, { type: string; name?: string; in?: string; scheme?: string }> };
}

/** The document the server serves at /prog/openapi.json, exported from the backend code by the web build (web/site/prerender-plugin.ts). */
export const PROG_OPENAPI = document as OpenApiDocument;

/** The documented endpoints, each with the anchor the page gives it. */
export const ENDPOINT_ANCHORS = [
  { anchor: 'health-check', method: 'get', path: '/prog/ping' },
  { anchor: 'create-job', method: 'post', path: '/prog/jobs' },
  { anchor: 'list-jobs', method: 'get', path: '/prog/jobs' },
  { anchor: 'get-job', method: 'get', path: '/prog/jobs/{job_id}' },
  { anchor: 'update-job', method: 'put', path: '/prog/jobs/{job_id}' },
  { anchor: 'delete-job', method: 'delete', path: '/prog/jobs/{job_id}' },
  { anchor: 'pause-job', method: 'post', path: '/prog/jobs/{job_id}/pause' },
  { anchor: 'resume-job', method: 'post', path: '/prog/jobs/{job_id}/resume' },
  { anchor: 'job-logs', method: 'get', path: '/prog/jobs/{job_id}/logs' },
] as const;

export interface DocumentedEndpoint {
  anchor: string;
  method: string;
  path: string;
  operation: Operation;
}

/**
 * Every operation of the document in the page's order; one the anchor list
 * does not know gets an anchor from its operation id, so nothing the API
 * offers is left out, and an anchor whose operation vanished fails the build.
 */
export function documentedEndpoints(doc: OpenApiDocument = PROG_OPENAPI): DocumentedEndpoint[] {
  const known = ENDPOINT_ANCHORS.map(({ anchor, method, path }) => {
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`The OpenAPI document has no ${method.toUpperCase()} ${path} for #${anchor}`);
    return { anchor, method, path, operation };
  });
  const others = Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => !ENDPOINT_ANCHORS.some((e) => e.path === path && e.method === method))
      .map(([method, operation]) => ({ anchor: (operation.operationId ?? `${method}-${path}`).replace(/[^A-Za-z0-9]+/g, '-').toLowerCase(), method, path, operation })),
  );
  return [...known, ...others];
}

/** The name a $ref points at, e.g. '#/components/schemas/Job' → 'Job'. */
export function refName(ref: string): string {
  return ref.split('/').pop() ?? ref;
}

/** A short type text such as 'string', 'Job[]', 'object of string'. */
export function typeText(schema: SchemaObject | undefined): string {
  if (!schema) return '';
  if (schema.$ref) return refName(schema.$ref);
  if (schema.type === 'array') return `${typeText(schema.items)}[]`;
  if (schema.type === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object') {
    return `object of ${typeText(schema.additionalProperties)}`;
  }
  const base = schema.format ? `${schema.type ?? 'any'} (${schema.format})` : (schema.type ?? 'any');
  return schema.nullable ? `${base} or null` : base;
}

/** The limits of a field in words: length, pattern, allowed values, default. */
export function rulesText(schema: SchemaObject): string {
  const rules: string[] = [];
  if (schema.minLength !== undefined && schema.maxLength !== undefined) rules.push(`${schema.minLength}-${schema.maxLength} characters`);
  else if (schema.maxLength !== undefined) rules.push(`at most ${schema.maxLength} characters`);
  if (schema.maxProperties !== undefined) rules.push(`at most ${schema.maxProperties} entries`);
  if (schema.pattern) rules.push(`pattern ${schema.pattern}`);
  if (schema.enum) rules.push(`one of ${schema.enum.map(String).join(', ')}`);
  if (schema.minimum !== undefined) rules.push(`minimum ${schema.minimum}`);
  if (schema.default !== undefined) rules.push(`default ${JSON.stringify(schema.default)}`);
  return rules.join('; ');
}
