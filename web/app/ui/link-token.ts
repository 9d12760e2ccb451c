/**
 * The token of a mailed link (`...#token=...`): links carry it in the
 * fragment, which never reaches a server, so it stays out of request logs.
 */
export function tokenFromFragment(hash: string): string | null {
  return new URLSearchParams(hash.replace(/^#/, '')).get('token');
}
