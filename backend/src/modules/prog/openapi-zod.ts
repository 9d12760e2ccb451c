import { z } from 'zod';

type Schema = Record<string, unknown>;

/**
 * OpenAPI 3.0 forbids `nullable` without `type`. zod writes one for a
 * nullable field it cannot type (a value checked by hand, such as a cron
 * expression); such a schema already allows any value, null included.
 */
function withoutUntypedNullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutUntypedNullable);
  if (!schema || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withoutUntypedNullable(value)])) as Schema;
  if (copy.nullable !== undefined && copy.type === undefined) delete copy.nullable;
  return copy;
}

/** A zod schema as the OpenAPI 3.0 schema of what a client may send. */
export function requestSchema(schema: z.ZodType): Schema {
  return withoutUntypedNullable(z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' })) as Schema;
}

/** The keywords that state a limit; a hand-written schema takes these from the rules the server checks. */
const LIMITS = ['minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems'] as const;

/**
 * `documented` with every limit zod states for the same fields (nested
 * objects too), so the words and examples are written by hand but the numbers
 * are the server's.
 */
export function withLimitsOf<T extends object>(documented: T, rules: z.ZodType): T {
  const merge = (doc: Schema, zod: Schema): Schema => {
    const merged: Schema = { ...doc };
    for (const key of LIMITS) if (zod[key] !== undefined) merged[key] = zod[key];
    const docProps = doc.properties as Record<string, Schema> | undefined;
    const zodProps = zod.properties as Record<string, Schema> | undefined;
    if (docProps && zodProps) {
      merged.properties = Object.fromEntries(Object.entries(docProps).map(([name, prop]) => [name, zodProps[name] && !('$ref' in prop) ? merge(prop, zodProps[name]) : prop]));
    }
    return merged;
  };
  return merge(documented as Schema, requestSchema(rules)) as T;
}
