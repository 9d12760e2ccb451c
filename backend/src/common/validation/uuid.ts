const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * True for a textual UUID. Path ids are checked before they reach a uuid
 * column, so a malformed one is a plain 404 rather than a database error.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
