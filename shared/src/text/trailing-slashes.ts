/**
 * `value` without the slashes it ends with (configured base URLs, request
 * paths). A scan from the end, not a pattern: a run of slashes anywhere in a
 * client's path costs one pass, never a match attempt per position.
 */
export function withoutTrailingSlashes(value: string): string {
  let end = value.length;
  while (end > 0 && value.charCodeAt(end - 1) === 0x2f) end--;
  return value.slice(0, end);
}
