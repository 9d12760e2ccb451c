/** Path prefixes owned by the server; everything else is the web app's (SPA fallback). */
export const SERVER_PATH_PREFIXES = ['/api', '/prog', '/ping', '/.well-known', '/metrics', '/status', '/badge'] as const;

export function isServerPath(path: string): boolean {
  return SERVER_PATH_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}
