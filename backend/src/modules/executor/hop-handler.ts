import type { Dispatcher } from 'undici';
import { BodyCapture } from './response-capture';

/** What one request hop answered. */
export interface HopResponse {
  statusCode: number;
  contentType: string | undefined;
  location: string | undefined;
  /** Kept only on 429 and 503 answers, the ones a retry policy may honour it on. */
  retryAfter: string | undefined;
  body: BodyCapture;
}

type Settle = (error: Error | null, response?: HopResponse) => void;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The undici dispatch handler of one request hop. Working on dispatch rather
 * than request() skips a body stream, an async iterator and an AbortSignal per
 * execution, which is most of the client's cost in a burst. It keeps the first
 * 64 KiB of the body, cuts the download beyond that, and settles exactly once.
 */
export class HopHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private pendingAbort: Error | null = null;
  private statusCode = 0;
  private contentType: string | undefined;
  private location: string | undefined;
  private retryAfter: string | undefined;
  private readonly body = new BodyCapture();
  private settled = false;

  constructor(private readonly settle: Settle) {}

  /** Gives up on the hop (its deadline passed); also works while the request still waits for a connection. */
  abort(reason: Error): void {
    if (this.settled) return;
    if (this.controller) this.controller.abort(reason);
    else this.pendingAbort = reason;
    this.finish(reason);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.pendingAbort) controller.abort(this.pendingAbort);
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: Record<string, string | string[] | undefined>): void {
    if (statusCode < 200) return; // 1xx informational: the real answer follows
    this.statusCode = statusCode;
    this.contentType = first(headers['content-type']);
    this.location = first(headers.location);
    if (statusCode === 429 || statusCode >= 500) this.retryAfter = first(headers['retry-after']);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    if (!this.body.add(chunk)) {
      // Over the capture limit: what was kept is the answer; the rest is not downloaded.
      this.finish(null);
      controller.abort(new Error('Response body over the capture limit'));
    }
  }

  onResponseEnd(): void {
    this.finish(null);
  }

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    this.finish(error);
  }

  private finish(error: Error | null): void {
    if (this.settled) return;
    this.settled = true;
    if (error) this.settle(error);
    else this.settle(null, { statusCode: this.statusCode, contentType: this.contentType, location: this.location, retryAfter: this.retryAfter, body: this.body });
  }
}
