import {
  NodeApiError,
  type IAuthenticateRuleResponseCode,
  type IAuthenticateRuleResponseSuccessBody,
  type ICredentialDataDecryptedObject,
  type ICredentialType,
  type IDataObject,
  type IExecuteFunctions,
  type IHttpRequestOptions,
  type ILoadOptionsFunctions,
  type IN8nHttpFullResponse,
  type INode,
  type INodeCredentialTestResult,
  type INodeExecutionData,
  type INodeProperties,
  type INodeTypeDescription,
  type IPollFunctions,
  type JsonObject,
} from 'n8n-workflow';

/**
 * A small stand-in for the n8n runtime: the parts of the execution, polling,
 * load-options and credential-test contexts that the Cronbeam nodes use,
 * behaving as n8n's do. It is the environment under which the nodes are
 * tested, not the thing tested, so it refuses (throws on) anything it does
 * not implement rather than guessing.
 */

export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
}

type Parameters = Record<string, unknown>;

/** n8n's expression syntax, reduced to what credential definitions here use: `={{$credentials.field}}`. */
export function resolveCredentialExpression(value: unknown, credentials: ICredentialDataDecryptedObject): unknown {
  if (typeof value !== 'string' || !value.startsWith('=')) return value;
  const template = value.slice(1);
  const whole = /^\{\{\s*\$credentials\??\.(\w+)\s*\}\}$/.exec(template);
  if (whole) return credentials[whole[1]];
  return template.replace(/\{\{(.*?)\}\}/g, (_match, expression: string) => {
    const field = /^\s*\$credentials\??\.(\w+)\s*$/.exec(expression);
    if (!field) throw new Error(`harness: unsupported expression {{${expression}}}`);
    return String(credentials[field[1]] ?? '');
  });
}

/** Applies a credential type's `authenticate` as n8n's credentials helper does (generic form: headers, qs, body, auth). */
export function authenticateRequest(type: ICredentialType, credentials: ICredentialDataDecryptedObject, options: IHttpRequestOptions): IHttpRequestOptions {
  const authenticate = type.authenticate;
  if (!authenticate) return options;
  if (typeof authenticate === 'function') throw new Error('harness: function-style authenticate is not implemented');
  const resolve = (values: IDataObject | undefined) =>
    Object.fromEntries(Object.entries(values ?? {}).map(([key, value]) => [key, resolveCredentialExpression(value, credentials)])) as IDataObject;
  const { headers, qs, body, auth } = authenticate.properties;
  const result: IHttpRequestOptions = { ...options };
  if (headers) result.headers = { ...(options.headers ?? {}), ...resolve(headers) };
  if (qs) result.qs = { ...(options.qs ?? {}), ...resolve(qs) };
  if (body) result.body = { ...((options.body as IDataObject) ?? {}), ...resolve(body) };
  if (auth) result.auth = resolve(auth as unknown as IDataObject) as unknown as IHttpRequestOptions['auth'];
  return result;
}

/** The error n8n's request helper (axios) throws for an answer outside 2xx. */
class HttpStatusError extends Error {
  constructor(
    readonly response: { status: number; data: unknown; headers: IDataObject },
  ) {
    super(`Request failed with status code ${response.status}`);
    this.name = 'AxiosError';
  }
}

async function send(options: { method?: string; url: string; headers?: IDataObject; body?: unknown }): Promise<{ status: number; statusText: string; headers: IDataObject; body: unknown }> {
  const headers: Record<string, string> = Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k, String(v)]));
  let body: string | undefined;
  if (options.body !== undefined && options.body !== null) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (typeof options.body !== 'string' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
  }
  let response: Response;
  try {
    response = await fetch(options.url, { method: options.method ?? 'GET', headers, body });
  } catch (error) {
    // Like axios, report the socket error (ECONNREFUSED …), not fetch's wrapper.
    const cause = (error as { cause?: { message?: string; code?: string } }).cause;
    const failure = new Error(cause?.message ?? (error as Error).message) as Error & { code?: string };
    failure.code = cause?.code;
    throw failure;
  }
  const text = await response.text();
  let parsed: unknown = text;
  if ((response.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
  return { status: response.status, statusText: response.statusText, headers: Object.fromEntries(response.headers.entries()), body: parsed };
}

function withQuery(url: string, qs: IDataObject | undefined): string {
  if (!qs || !Object.keys(qs).length) return url;
  const target = new URL(url);
  for (const [key, value] of Object.entries(qs)) target.searchParams.set(key, String(value));
  return target.toString();
}

/** `options.show` of a property: every named parameter must hold one of the listed values. */
function isShown(property: INodeProperties, parameters: Parameters): boolean {
  const show = property.displayOptions?.show;
  if (property.displayOptions?.hide) throw new Error('harness: displayOptions.hide is not implemented');
  if (!show) return true;
  return Object.entries(show).every(([name, values]) => (values as unknown[]).includes(parameters[name]));
}

/** The node's parameters as n8n stores them: what the user set, plus the default of every other visible property. */
export function withDefaults(description: INodeTypeDescription, given: Parameters): Parameters {
  const parameters: Parameters = { ...given };
  for (let changed = true; changed; ) {
    changed = false;
    for (const property of description.properties) {
      if (property.name in parameters || !isShown(property, parameters)) continue;
      parameters[property.name] = structuredClone(property.default);
      changed = true;
    }
  }
  return parameters;
}

function readParameter(parameters: Parameters, name: string, fallback: unknown, options?: { extractValue?: boolean }): unknown {
  let value: unknown = parameters;
  for (const part of name.split('.')) value = value && typeof value === 'object' ? (value as Parameters)[part] : undefined;
  if (value === undefined) {
    if (fallback === undefined) throw new Error(`Could not get parameter "${name}"`);
    return fallback;
  }
  if (options?.extractValue && value && typeof value === 'object' && '__rl' in value) return (value as unknown as { value: unknown }).value;
  return structuredClone(value);
}

export class N8nRuntime {
  readonly requests: RecordedRequest[] = [];

  constructor(
    private readonly credentialType: ICredentialType,
    private readonly credentials: ICredentialDataDecryptedObject,
    readonly node: INode = {
      id: 'node-1',
      name: 'Cronbeam',
      type: 'n8n-nodes-cronbeam.cronbeam',
      typeVersion: 1,
      position: [0, 0],
      parameters: {},
      credentials: { [credentialType.name]: { id: 'cred-1', name: 'Cronbeam account' } },
    },
  ) {}

  /** helpers.httpRequest: axios semantics (throws outside 2xx unless told not to; full response on request). */
  async httpRequest(options: IHttpRequestOptions): Promise<unknown> {
    const url = withQuery(options.baseURL ? new URL(options.url, options.baseURL).toString() : options.url, options.qs);
    this.requests.push({ method: options.method ?? 'GET', url, headers: Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k, String(v)])) });
    const response = await send({ method: options.method, url, headers: options.headers, body: options.body });
    if (response.status >= 400 && !options.ignoreHttpStatusErrors) throw new HttpStatusError({ status: response.status, data: response.body, headers: response.headers });
    if (options.returnFullResponse) {
      const full: IN8nHttpFullResponse = { body: response.body as IN8nHttpFullResponse['body'], headers: response.headers, statusCode: response.status, statusMessage: response.statusText };
      return full;
    }
    return response.body;
  }

  /** helpers.httpRequestWithAuthentication: the credential's `authenticate` applied, errors wrapped in NodeApiError. */
  async httpRequestWithAuthentication(credentialsType: string, options: IHttpRequestOptions): Promise<unknown> {
    if (credentialsType !== this.credentialType.name) throw new Error(`harness: node asked for credentials "${credentialsType}"`);
    try {
      return await this.httpRequest(authenticateRequest(this.credentialType, this.credentials, options));
    } catch (error) {
      // As n8n 2.x does: the socket error is kept as the cause (its message names the code, e.g. ECONNREFUSED).
      const wrapped = new NodeApiError(this.node, error as JsonObject);
      if (error instanceof Error) Object.defineProperty(wrapped, 'cause', { value: error });
      throw wrapped;
    }
  }

  private async getCredentials(type: string): Promise<ICredentialDataDecryptedObject> {
    if (type !== this.credentialType.name) throw new Error(`harness: node asked for credentials "${type}"`);
    return structuredClone(this.credentials);
  }

  /** Nodes call helpers with `.call(this, ...)`; the runtime, not that `this`, holds the credentials. */
  private helpers() {
    return {
      httpRequest: (options: IHttpRequestOptions) => this.httpRequest(options),
      httpRequestWithAuthentication: (type: string, options: IHttpRequestOptions) => this.httpRequestWithAuthentication(type, options),
    };
  }

  /** IExecuteFunctions for one run of a node over `items`; `parameters` is one object for all items or one per item. */
  executeContext(description: INodeTypeDescription, parameters: Parameters | Parameters[], options: { items?: INodeExecutionData[]; continueOnFail?: boolean } = {}): IExecuteFunctions {
    const items = options.items ?? (Array.isArray(parameters) ? parameters.map(() => ({ json: {} })) : [{ json: {} }]);
    const perItem = (i: number) => withDefaults(description, Array.isArray(parameters) ? parameters[i] : parameters);
    const context = {
      getInputData: () => items,
      getNode: () => this.node,
      getCredentials: (type: string) => this.getCredentials(type),
      continueOnFail: () => options.continueOnFail ?? false,
      getNodeParameter: (name: string, itemIndex: number, fallback?: unknown, opts?: { extractValue?: boolean }) => {
        if (itemIndex >= items.length) throw new Error(`harness: item ${itemIndex} does not exist`);
        return readParameter(perItem(itemIndex), name, fallback, opts);
      },
      helpers: this.helpers(),
    };
    return context as unknown as IExecuteFunctions;
  }

  /** IPollFunctions; `staticData` is the object n8n keeps (and saves with the workflow) for the node. */
  pollContext(description: INodeTypeDescription, parameters: Parameters, staticData: IDataObject, mode: 'trigger' | 'manual' = 'trigger'): IPollFunctions {
    const resolved = withDefaults(description, parameters);
    const context = {
      getNode: () => this.node,
      getMode: () => mode,
      getCredentials: (type: string) => this.getCredentials(type),
      getWorkflowStaticData: (type: string) => {
        if (type !== 'node') throw new Error(`harness: static data "${type}" is not implemented`);
        return staticData;
      },
      getNodeParameter: (name: string, fallback?: unknown, opts?: { extractValue?: boolean }) => readParameter(resolved, name, fallback, opts),
      helpers: this.helpers(),
    };
    return context as unknown as IPollFunctions;
  }

  /** ILoadOptionsFunctions, for list searches and option loaders. */
  loadOptionsContext(description: INodeTypeDescription, parameters: Parameters = {}): ILoadOptionsFunctions {
    const resolved = withDefaults(description, parameters);
    const context = {
      getNode: () => this.node,
      getCredentials: (type: string) => this.getCredentials(type),
      getNodeParameter: (name: string, fallback?: unknown, opts?: { extractValue?: boolean }) => readParameter(resolved, name, fallback, opts),
      getCurrentNodeParameter: (name: string, opts?: { extractValue?: boolean }) => readParameter(resolved, name, null, opts),
      helpers: this.helpers(),
    };
    return context as unknown as ILoadOptionsFunctions;
  }
}

/**
 * A credential's declarative `test`, run as n8n's credentials tester runs it:
 * the request's expressions resolved against the credential, its
 * `authenticate` applied, then sent. An answer outside 2xx is an error whose
 * message is the first `responseCode` rule for that status, else the status
 * text; a request without an answer reports the socket error's code.
 */
export async function testCredential(type: ICredentialType, credentials: ICredentialDataDecryptedObject): Promise<INodeCredentialTestResult> {
  const test = type.test;
  if (!test || !('request' in test)) throw new Error(`harness: credential ${type.name} has no declarative test`);
  const { baseURL, url, method, headers, qs } = test.request;
  const resolved = authenticateRequest(type, credentials, {
    // axios joins baseURL and url with exactly one slash.
    url: `${String(resolveCredentialExpression(baseURL, credentials)).replace(/\/+$/, '')}/${String(resolveCredentialExpression(url ?? '', credentials)).replace(/^\/+/, '')}`,
    method: method ?? 'GET',
    headers: headers as IDataObject | undefined,
    qs: qs as IDataObject | undefined,
  });
  let response: Awaited<ReturnType<typeof send>>;
  try {
    response = await send({ method: resolved.method, url: withQuery(resolved.url, resolved.qs), headers: resolved.headers });
  } catch (error) {
    const code = (error as { code?: string }).code;
    return { status: 'Error', message: code ?? (error as Error).message };
  }
  if (response.status < 200 || response.status > 299) {
    const rules = (test.rules ?? []) as Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody>;
    const rule = rules.find((r): r is IAuthenticateRuleResponseCode => r.type === 'responseCode' && r.properties.value === response.status);
    if (rule) return { status: 'Error', message: rule.properties.message };
    return { status: 'Error', message: response.statusText || `Received HTTP status code: ${response.status}` };
  }
  for (const rule of (test.rules ?? []) as Array<IAuthenticateRuleResponseCode | IAuthenticateRuleResponseSuccessBody>) {
    if (rule.type === 'responseSuccessBody' && (response.body as IDataObject | null)?.[rule.properties.key] === rule.properties.value) {
      return { status: 'Error', message: rule.properties.message };
    }
  }
  return { status: 'OK', message: 'Connection successful!' };
}
