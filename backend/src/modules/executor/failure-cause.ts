/** Why an execution failed, as the log shows it, and whether trying again could help. */
export interface FailureCause {
  message: string;
  retryable: boolean;
  /** For a retry policy: no answer in time, no connection, or neither (a refusal that trying again cannot fix). */
  kind: 'timeout' | 'network' | 'final';
}

const TLS_CODE = /^(CERT_|ERR_TLS_|ERR_SSL_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|HOSTNAME_MISMATCH)/;

interface ErrorLike {
  name?: string;
  code?: string;
  message?: string;
  hostname?: string;
  address?: string;
  port?: number;
  cause?: unknown;
}

/** The error and its causes, outermost first (undici and fetch wrap the socket error). */
function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let current: unknown = error;
  while (current && typeof current === 'object' && out.length < 5) {
    out.push(current as ErrorLike);
    current = (current as ErrorLike).cause;
  }
  return out;
}

/** Names the cause of a request that produced no HTTP response: timeout, DNS, refused, reset, TLS, blocked target. */
export function describeRequestError(error: unknown, timeoutMs: number): FailureCause {
  const errors = chain(error);
  const find = (test: (e: ErrorLike) => boolean) => errors.find(test);

  const blocked = find((e) => e.code === 'ERR_FORBIDDEN_TARGET');
  if (blocked) return { message: blocked.message ?? 'Blocked target', retryable: false, kind: 'final' };

  if (find((e) => e.name === 'TimeoutError' || e.code === 'UND_ERR_HEADERS_TIMEOUT' || e.code === 'UND_ERR_BODY_TIMEOUT' || e.code === 'UND_ERR_CONNECT_TIMEOUT')) {
    return { message: `Timeout: no response within ${timeoutMs} ms`, retryable: true, kind: 'timeout' };
  }
  const dns = find((e) => e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' || e.code === 'EAI_NODATA' || e.code === 'EAI_FAIL');
  if (dns) {
    const host = dns.hostname ? ` for ${dns.hostname}` : '';
    return { message: `DNS lookup failed${host}: host not found (${dns.code})`, retryable: true, kind: 'network' };
  }

  const refused = find((e) => e.code === 'ECONNREFUSED');
  if (refused) {
    const where = refused.address ? ` by ${refused.address}${refused.port ? `:${refused.port}` : ''}` : '';
    return { message: `Connection refused${where}`, retryable: true, kind: 'network' };
  }
  const tls = find((e) => typeof e.code === 'string' && TLS_CODE.test(e.code));
  if (tls) return { message: `TLS/certificate error: ${tls.message ?? tls.code} (${tls.code})`, retryable: true, kind: 'network' };

  const network = find((e) => ['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED'].includes(e.code ?? ''));
  if (network) return { message: `Connection error: ${network.message ?? network.code} (${network.code})`, retryable: true, kind: 'network' };

  const first = errors[errors.length - 1] ?? {};
  return { message: `Request failed: ${first.message ?? String(error)}`, retryable: false, kind: 'final' };
}

/**
 * A request that never went out: no connection to its host became free
 * within its wait budget, because other requests to that host (its own
 * user's, or everyone's up to the host's fair share) held them all while
 * waiting for answers. Retrying is safe: the target saw nothing.
 */
export function describeNoConnection(host: string, waitedMs: number, redirect: boolean): FailureCause {
  const what = redirect ? `Redirect not followed: no connection to ${host}` : `Not sent: no connection to ${host}`;
  return { message: `${what} became free within ${waitedMs} ms (other requests to this host were still waiting for answers)`, retryable: true, kind: 'network' };
}

/** The outcome of an HTTP status: 2xx is success, 5xx is retryable, anything else fails for good. */
export function describeStatus(status: number): Omit<FailureCause, 'kind'> | null {
  if (status >= 200 && status < 300) return null;
  if (status >= 500) return { message: `HTTP ${status}: the target answered with a server error`, retryable: true };
  return { message: `HTTP ${status}: the target did not answer with a 2xx status`, retryable: false };
}
