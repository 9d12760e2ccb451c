/** Path prefixes owned by the server; everything else is the web app's (SPA fallback). */
export const SERVER_PATH_PREFIXES = ['/api', '/prog', '/ping', '/.well-known', '/metrics', '/status', '/badge'] as const;

export function isServerPath(path: string): boolean {
  return SERVER_PATH_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/**
 * A request URL's path, without its query and not decoded, as routing sees
 * it. A request through a proxy may name the whole URL (absolute form,
 * `GET http://host/path`): its scheme and host are left out.
 */
export function requestPath(url: string): string {
  let start = 0;
  if (url[0] !== '/') {
    const scheme = url.indexOf('://');
    if (scheme !== -1) {
      const slash = url.indexOf('/', scheme + 3);
      start = slash === -1 ? url.length : slash;
    }
  }
  const query = url.indexOf('?', start);
  return url.slice(start, query === -1 ? undefined : query) || '/';
}
