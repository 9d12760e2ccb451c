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
    .replace(/\/+$/, '');
}

interface ValidationIssue {
  loc?: unknown[];
  msg?: string;
}

/**
 * The API answers every error as `{"detail": ...}`: a sentence, a list of
 * field issues (422: `loc` names the field, `body` first) or an object with an
 * `error` sentence and figures (403 plan limits). Returns the sentence a user
 * should read, naming the field where there is one.
 */
export function apiErrorMessage(body: unknown): string | null {
  const detail = body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined;
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = (detail as ValidationIssue[]).map((issue) => {
      const field = (issue.loc ?? []).filter((part) => part !== 'body').join('.');
      return field ? `${field}: ${issue.msg ?? 'invalid'}` : (issue.msg ?? 'invalid');
    });
    return parts.length ? parts.join('; ') : null;
  }
  if (detail && typeof detail === 'object' && typeof (detail as { error?: unknown }).error === 'string') {
    return (detail as { error: string }).error;
  }
  return null;
}

/** For object details (plan limits): the figures besides the sentence, e.g. "plan: free, job_count: 2, max_jobs: 2". */
function apiErrorFigures(body: unknown): string | undefined {
  const detail = body && typeof body === 'object' ? (body as { detail?: unknown }).detail : undefined;
  if (!detail || typeof detail !== 'object' || Array.isArray(detail)) return undefined;
  const figures = Object.entries(detail as Record<string, unknown>).filter(([key]) => key !== 'error');
  return figures.length ? figures.map(([key, value]) => `${key}: ${String(value)}`).join(', ') : undefined;
}

/**
 * One call to the /prog API with the node's CronbeamApi credential. HTTP
 * errors come back as responses (not exceptions) so the API's own message
 * becomes the NodeApiError's message instead of n8n's generic text for the
 * status code; a request that gets no answer at all names the URL it tried.
 */
export async function cronbeamApiRequest<T>(
  this: CronbeamContext,
  method: IHttpRequestMethods,
  path: string,
  options: { body?: IDataObject; itemIndex?: number } = {},
): Promise<T> {
  const credentials = await this.getCredentials<CronbeamCredentials & IDataObject>(CREDENTIAL_TYPE);
  const url = `${normalizeBaseUrl(credentials.baseUrl)}${path}`;
  const request: IHttpRequestOptions = {
    method,
    url,
    json: true,
    returnFullResponse: true,
    ignoreHttpStatusErrors: true,
    ...(options.body === undefined ? {} : { body: options.body }),
  };

  let response: IN8nHttpFullResponse;
  try {
    response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, request)) as IN8nHttpFullResponse;
  } catch (error) {
    // n8n wraps the socket error in a NodeApiError with a generic text; the cause says what happened.
    const reason = ((error as Error).cause as Error | undefined)?.message ?? (error as Error).message;
    throw new NodeApiError(this.getNode(), { message: reason } as JsonObject, {
      message: `Cronbeam did not answer at ${url}: ${reason}`,
      itemIndex: options.itemIndex,
    });
  }

  if (response.statusCode >= 400) {
    throw new NodeApiError(this.getNode(), (response.body ?? {}) as JsonObject, {
      message: apiErrorMessage(response.body) ?? `Cronbeam answered ${response.statusCode} to ${method} ${path}`,
      // Always set: NodeApiError would otherwise repeat a fragment of the body as the description.
      description: apiErrorFigures(response.body) ?? `${method} ${path} answered ${response.statusCode}`,
      httpCode: String(response.statusCode),
      itemIndex: options.itemIndex,
    });
  }
  return response.body as T;
}
