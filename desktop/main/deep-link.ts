/** The app's URL scheme: `cronbeam://jobs/<id>` opens that job's logs. */
export const DEEP_LINK_SCHEME = 'cronbeam';

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The dashboard route for a deep link, or null for anything the app does not understand. */
export function routeForDeepLink(link: string): string | null {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    return null;
  }
  if (url.protocol !== `${DEEP_LINK_SCHEME}:`) return null;
  // cronbeam://jobs/<id>: "jobs" parses as the host.
  const parts = [url.hostname, ...url.pathname.split('/')].filter(Boolean);
  if (parts.length === 0) return '/dashboard';
  if (parts[0] === 'jobs' && parts.length === 2 && JOB_ID.test(parts[1])) return jobLogsRoute(parts[1]);
  return null;
}

/** The dashboard's jobs page with the job's logs open. */
export function jobLogsRoute(jobId: string): string {
  return `/dashboard/jobs?logs=${encodeURIComponent(jobId)}`;
}

/** The dashboard's heartbeat monitors page. */
export const MONITORS_ROUTE = '/dashboard/monitors';

/** The deep link among a second instance's (or the first launch's) command-line arguments. */
export function deepLinkInArgs(argv: readonly string[]): string | null {
  return argv.find((arg) => arg.startsWith(`${DEEP_LINK_SCHEME}://`)) ?? null;
}
