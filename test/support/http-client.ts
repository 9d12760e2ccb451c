import { Agent, fetch } from 'undici';

/**
 * One connection per request. A kept-alive connection can be closed by the
 * server's keep-alive timer just as the next request goes out on it ("fetch
 * failed": seen on the embedded database, whose queries hold the event loop
 * that both ends' timers share); a test must see the server's answer, never
 * that race. Loopback connections cost next to nothing.
 */
const noKeepAlive = new Agent({ pipelining: 0 });

/** The answer of one HTTP call, with the body parsed when it is JSON. */
export interface HttpResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  token?: string;
  headers?: Record<string, string>;
  /** A raw string body is sent as is; anything else as JSON. */
  body?: unknown;
}

/** A thin fetch wrapper for API tests: JSON in, JSON out, nothing hidden. */
export class HttpClient {
  /**
   * `onAnswer`: told of every request and its answer (the test server's audit
   * check records the changes); `beforeSend`: awaited before each request is sent.
   */
  constructor(
    readonly baseUrl: string,
    private readonly onAnswer?: (method: string, path: string, body: unknown, status: number, requestId: string | null, answer: unknown) => void,
    private readonly beforeSend?: (method: string, path: string) => Promise<void>,
  ) {}

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<HttpResult<T>> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    await this.beforeSend?.(method, path);
    const res = await fetch(this.baseUrl + path, { method, headers, body, redirect: 'manual', dispatcher: noKeepAlive });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    this.onAnswer?.(method, path, options.body, res.status, res.headers.get('x-request-id'), parsed);
    // The platform's Headers (undici's own type differs in its iterators); each Set-Cookie stays its own entry.
    return { status: res.status, headers: new Headers([...res.headers]), body: parsed as T, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('POST', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options?: RequestOptions) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}
