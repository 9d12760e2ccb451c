import { PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { ApiError, type ValidationIssue } from '../http/api-error';

/** Converts zod issues into the 422 `detail` list: one entry per field, naming it by location. */
export function toValidationIssues(error: z.ZodError, root: string): ValidationIssue[] {
  return error.issues.map((issue) => ({
    loc: [root, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    msg: issue.message,
    type: issue.code,
  }));
}

/**
 * Validates a request part against a schema from the project's shared/
 * package, so the browser, the API and the docs apply the same rules with the
 * same messages. `@Body(new ZodPipe(schema))`, `@Query(new ZodPipe(schema, 'query'))`.
 */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  // Public so the OpenAPI documents describe each request part by the schema that validates it.
  constructor(
    readonly schema: S,
    readonly root: 'body' | 'query' | 'path' = 'body',
  ) {}

  transform(value: unknown): z.infer<S> {
    const result = this.schema.safeParse(value ?? (this.root === 'body' ? undefined : {}));
    if (!result.success) throw ApiError.validation(toValidationIssues(result.error, this.root));
    return result.data;
  }
}
