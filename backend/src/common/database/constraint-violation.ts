import { QueryFailedError } from 'typeorm';

function driverError(error: unknown): { code?: string; constraint?: string } | null {
  return error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : null;
}

/** True when `error` is PostgreSQL's unique violation on the named index. */
export function isUniqueViolation(error: unknown, indexName: string): boolean {
  const e = driverError(error);
  return e?.code === '23505' && e.constraint === indexName;
}

/** True when `error` is a foreign-key violation: the referenced row (a job, say) was deleted meanwhile. */
export function isForeignKeyViolation(error: unknown): boolean {
  return driverError(error)?.code === '23503';
}
