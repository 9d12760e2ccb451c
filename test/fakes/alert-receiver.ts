import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_SIGNATURE_HEADER } from '@cronbeam/shared/notifications/alert-channels';
import { HttpTarget, type ReceivedRequest } from './http-target';

/**
 * A local stand-in for the receivers of alert channels (a webhook endpoint,
 * a Slack or Discord incoming webhook): an HttpTarget that answers per path
 * and checks webhook signatures the way a receiver should.
 */
export class AlertReceiver {
  private constructor(readonly target: HttpTarget) {}

  static async start(): Promise<AlertReceiver> {
    return new AlertReceiver(await HttpTarget.start());
  }

  url(path: string): string {
    return `${this.target.url}${path}`;
  }

  /** Answers `status` on the path, e.g. 500 to make deliveries fail and be retried. */
  answer(path: string, status: number): void {
    this.target.on(path, (_req, res) => {
      res.writeHead(status);
      res.end();
    });
  }

  received(path: string): ReceivedRequest[] {
    return this.target.received.filter((r) => r.path === path);
  }

  /** Waits until `count` requests reached the path (polling, up to `timeoutMs`). */
  async waitFor(path: string, count: number, timeoutMs = 20_000): Promise<ReceivedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received(path).length < count) {
      if (Date.now() > deadline) throw new Error(`${path}: ${this.received(path).length} of ${count} requests after ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return this.received(path);
  }

  /** True when the request's signature header is an HMAC-SHA256 of "<t>.<body>" under `secret`. */
  static verifySignature(request: ReceivedRequest, secret: string): boolean {
    const header = String(request.headers[WEBHOOK_SIGNATURE_HEADER] ?? '');
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
    if (!match) return false;
    const expected = createHmac('sha256', secret).update(`${match[1]}.${request.body}`).digest();
    return timingSafeEqual(expected, Buffer.from(match[2]!, 'hex'));
  }

  close(): Promise<void> {
    return this.target.close();
  }
}
