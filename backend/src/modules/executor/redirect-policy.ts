import type { HttpMethod } from '@cronbeam/shared/jobs/job-types';

/** Where a redirect leads and what of the job's request goes along, or why it is not followed. */
export type RedirectStep =
  | { refusal: string }
  | {
      url: URL;
      method: HttpMethod;
      /** The redirect turns the request into a GET (or keeps a HEAD) without a body or content type. */
      dropsBody: boolean;
      /** The job's own headers (cookies, API keys, anything it set) go along; otherwise only the executor's own. */
      keepsJobHeaders: boolean;
    };

/**
 * Whether the job's credentials may follow a redirect from `from` to `to`:
 * only to the same origin, or to the HTTPS version of the same host on the
 * default ports (the one upgrade servers ask for; whoever answers there is
 * the host the headers were already sent to, now over TLS).
 */
function sameTarget(from: URL, to: URL): boolean {
  if (from.origin === to.origin) return true;
  return from.protocol === 'http:' && to.protocol === 'https:' && from.hostname === to.hostname && from.port === '' && to.port === '';
}

/**
 * The redirect rules of an execution. A redirect never downgrades HTTPS to
 * plain HTTP, and a job's headers and body never reach another origin: its
 * headers are left behind there, and a redirect that would resend its body
 * elsewhere (307, 308) is refused. 303, and 301/302 for anything but HEAD,
 * turn into a GET without a body.
 */
export function followRedirect(from: URL, location: string, status: number, method: HttpMethod, hasBody: boolean): RedirectStep {
  const to = URL.canParse(location, from.href) ? new URL(location, from) : null;
  if (!to || (to.protocol !== 'http:' && to.protocol !== 'https:')) return { refusal: `Redirect to an unsupported URL (${to?.protocol ?? location})` };
  if (from.protocol === 'https:' && to.protocol === 'http:') {
    return { refusal: `Redirect refused: the target answered ${status} from HTTPS to unencrypted HTTP (${to.origin})` };
  }
  const dropsBody = status === 303 || ((status === 301 || status === 302) && method !== 'HEAD');
  const keepsJobHeaders = sameTarget(from, to);
  if (hasBody && !dropsBody && !keepsJobHeaders) {
    return { refusal: `Redirect refused: the target answered ${status} to another origin (${to.origin}), which would resend the request body there` };
  }
  return { url: to, method: dropsBody && method !== 'HEAD' ? 'GET' : method, dropsBody, keepsJobHeaders };
}
