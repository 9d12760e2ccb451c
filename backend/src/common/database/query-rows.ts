/**
 * TypeORM's postgres driver answers an UPDATE or DELETE with `[rows, affected]`
 * and a SELECT (or INSERT) with the rows: this returns the rows either way.
 */
export function returnedRows<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
