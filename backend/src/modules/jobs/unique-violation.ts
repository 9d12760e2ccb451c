import { QueryFailedError } from 'typeorm';

/** True when `error` is PostgreSQL's unique violation on the named index. */
export function isUniqueViolation(error: unknown, indexName: string): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driverError = error.driverError as { code?: string; constraint?: string };
  return driverError.code === '23505' && driverError.constraint === indexName;
}
