import { createServer, type Server, type Socket } from 'node:net';

const ORIGIN = performance.timeOrigin;
const HEAD_END = Buffer.from('\r\n\r\n');
const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}');

/**
 * The benchmark's target: a minimal HTTP/1.1 keep-alive responder that
 * timestamps each request as its head arrives and answers 200 at once.
 * Real targets run on other machines; this one shares the two cores with the
 * system under test, so it does as little as HTTP allows (node:http costs
 * several times more per request and its own delays would be counted as the
 * scheduler's lateness). It reads request heads and skips bodies by their
 * Content-Length; that is all the executor sends.
 */
export class BenchTarget {
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** `onRequest(path, arrivedAt)`: arrivedAt is epoch milliseconds with sub-millisecond precision. */
  static async start(onRequest: (path: string, arrivedAt: number) => void): Promise<BenchTarget> {
    const server = createServer({ noDelay: true });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const target = new BenchTarget(server, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
    server.on('connection', (socket) => target.serve(socket, onRequest));
    return target;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private serve(socket: Socket, onRequest: (path: string, arrivedAt: number) => void): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    let pending = Buffer.alloc(0);
    let skip = 0; // body bytes of the current request still to discard
    socket.on('data', (chunk: Buffer) => {
      const arrivedAt = ORIGIN + performance.now();
      let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
      let answers = 0;
      for (;;) {
        if (skip > 0) {
          const taken = Math.min(skip, data.length);
          skip -= taken;
          data = data.subarray(taken);
          if (skip > 0) break;
        }
        const end = data.indexOf(HEAD_END);
        if (end < 0) break;
        const head = data.toString('latin1', 0, end);
        data = data.subarray(end + HEAD_END.length);
        const firstSpace = head.indexOf(' ');
        onRequest(head.slice(firstSpace + 1, head.indexOf(' ', firstSpace + 1)), arrivedAt);
        const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
        skip = length ? Number(length[1]) : 0;
        answers++;
      }
      pending = data.length > 0 ? Buffer.from(data) : Buffer.alloc(0);
      if (answers === 1) socket.write(RESPONSE);
      else if (answers > 1) socket.write(Buffer.concat(Array(answers).fill(RESPONSE)));
    });
  }
}
