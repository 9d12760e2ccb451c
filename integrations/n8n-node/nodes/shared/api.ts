import {
  NodeApiError,
  type IDataObject,
  type IExecuteFunctions,
  type IHttpRequestMethods,
  type IHttpRequestOptions,
  type ILoadOptionsFunctions,
  type IN8nHttpFullResponse,
  type IPollFunctions,
  type JsonObject,
} from 'n8n-workflow';
import { describeDetail, detailOf, isDetailWithFigures } from '../../../sdk/src/core';

export const CREDENTIAL_TYPE = 'cronbeamApi';

/** The fields of the CronbeamApi credential. */
export interface CronbeamCredentials {
  baseUrl: string;
  apiKey: string;
  userId: string;
}

export type CronbeamContext = IExecuteFunctions | ILoadOptionsFunctions | IPollFunctions;

/** "https://host/" and "https://host" name the same service; paths are appended to it. */
export function normalizeBaseUrl(baseUrl: unknown): string {
  return String(baseUrl ?? '')
    .trim()
    .replace(/(?<!\/)\/+$/, '');
}

/**
 * The API answers every error as `{"detail": ...}`: a sentence, a list of
 * field issues (422: `loc` names the field, `body` first) or an object with an
 * `error` sentence and figures (403 plan limits). Read by the SDK's rules; null
 * when the body is not the API's (a proxy's error page).
 */
function apiError(body: unknown, status: number): { message: string; figures?: string } | null {
  if (!body || typeof body !== 'object' || !('detail' in body)) return null;
  const detail = detailOf(body, status);
  if (!isDetailWithFigures(detail)) return { message: describeDetail(detail) };
  const figures = Object.entries(detail).filter(([key]) => key !== 'error');
  return { message: detail.error, figures: figures.length ? figures.map(([key, value]) => `${key}: ${String(value)}`).join(', ') : undefined };
}

/** Where the credential says Cronbeam answers (its Base URL, without a trailing slash). */
async function credentialBaseUrl(this: CronbeamContext): Promise<string> {
  const credentials = await this.getCredentials<CronbeamCredentials & IDataObject>(CREDENTIAL_TYPE);
  return normalizeBaseUrl(credentials.baseUrl);
}

/**
 * Sends one request and reads the answer. HTTP errors come back as responses
 * (not exceptions) so the API's own message becomes the NodeApiError's
 * message instead of n8n's generic text for the status code; a request that
 * gets no answer at all names the URL it tried.
 */
async function exchange(
  this: CronbeamContext,
  request: IHttpRequestOptions & { method: IHttpRequestMethods; url: string },
  path: string,
  send: (request: IHttpRequestOptions) => Promise<unknown>,
  itemIndex: number | undefined,
): Promise<unknown> {
  let response: IN8nHttpFullResponse;
  try {
    response = (await send({ ...request, json: true, returnFullResponse: true, ignoreHttpStatusErrors: true })) as IN8nHttpFullResponse;
  } catch (error) {
    // n8n wraps the socket error in a NodeApiError with a generic text; the cause says what happened.
    const reason = socketErrorInWords(((error as Error).cause as Error | undefined)?.message ?? (error as Error).message);
    throw new NodeApiError(this.getNode(), { message: reason } as JsonObject, {
      message: `Cronbeam did not answer at ${request.url}: ${reason}`,
      itemIndex,
    });
  }

  if (response.statusCode >= 400) {
    const refusal = apiError(response.body, response.statusCode);
    throw new NodeApiError(this.getNode(), (response.body ?? {}) as JsonObject, {
      message: refusal?.message ?? `Cronbeam answered ${response.statusCode} to ${request.method} ${path}`,
      // Always set: NodeApiError would otherwise repeat a fragment of the body as the description.
      description: refusal?.figures ?? `${request.method} ${path} answered ${response.statusCode}`,
      httpCode: String(response.statusCode),
      itemIndex,
    });
  }
  return response.body;
}

/** One call to the /prog API, authenticated with the node's CronbeamApi credential. */
export async function cronbeamApiRequest<T>(
  this: CronbeamContext,
  method: IHttpRequestMethods,
  path: string,
  options: { body?: IDataObject; itemIndex?: number } = {},
): Promise<T> {
  const url = `${await credentialBaseUrl.call(this)}${path}`;
  const request = { method, url, ...(options.body === undefined ? {} : { body: options.body }) };
  return (await exchange.call(this, request, path, (r) => this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, r), options.itemIndex)) as T;
}

/**
 * Socket error codes in words. NodeApiError replaces any message that contains
 * such a code (ECONNREFUSED, ENOTFOUND…) with n8n's generic text for it, which
 * would drop the URL this node names; n8n passes the socket error's own text
 * (`connect ECONNREFUSED 127.0.0.1:3000`) as the cause.
 */
const SOCKET_ERRORS: ReadonlyArray<[code: string, words: string]> = [
  ['ECONNREFUSED', 'the connection was refused (is Cronbeam running there, and is the Base URL right?)'],
  ['ECONNRESET', 'the connection was closed unexpectedly'],
  ['ENOTFOUND', 'the host name was not found (check the Base URL)'],
  ['EAI_AGAIN', 'the host name could not be looked up (DNS)'],
  ['GETADDRINFO', 'the host name could not be looked up (DNS)'],
  ['ETIMEDOUT', 'the connection timed out'],
  ['ECONNABORTED', 'the connection was aborted'],
  ['EHOSTUNREACH', 'the host is unreachable'],
  ['EADDRNOTAVAIL', 'the address is not available'],
];

function socketErrorInWords(reason: string): string {
  const upper = reason.toUpperCase();
  return SOCKET_ERRORS.find(([code]) => upper.includes(code))?.[1] ?? reason;
}

/**
 * A ping of a heartbeat monitor: its path (`/ping/{token}[/start|/fail]`) sent
 * to the credential's Base URL, which is known to reach Cronbeam from where
 * n8n runs. A ping URL needs no key, so none is sent.
 */
export async function cronbeamPing(this: IExecuteFunctions, pingPath: string, itemIndex: number): Promise<{ message: string }> {
  const url = `${await credentialBaseUrl.call(this)}${pingPath}`;
  return (await exchange.call(this, { method: 'POST', url }, pingPath, (r) => this.helpers.httpRequest(r), itemIndex)) as { message: string };
}
