import { createServer, type Server, type Socket } from 'node:net';

const HEAD_END = Buffer.from('\r\n\r\n');
/** A JSON answer, so the warm-up also runs the executor's text capture of a body. */
const ANSWER = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;

/**
 * A throwaway HTTP/1.1 keep-alive responder on 127.0.0.1 and a port the
 * kernel picks, for the executor's start-up warm-up (warm-up.ts):
 * it answers every request 200 at once and does nothing else. It lives only
 * while the warm-up runs; nothing outside the executor learns its address.
 */
export class LoopbackSink {
  private constructor(
    private readonly server: Server,
    private readonly sockets: Set<Socket>,
    /** `http://127.0.0.1:<port>` */
    readonly origin: string,
  ) {}

  static async open(): Promise<LoopbackSink> {
    const sockets = new Set<Socket>();
    const server = createServer({ noDelay: true }, (socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => socket.destroy());
      answerRequests(socket);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    return new LoopbackSink(server, sockets, `http://127.0.0.1:${(server.address() as { port: number }).port}`);
  }

  /** Closes the connections accepted so far (as a server dropping idle keep-alive connections does); it goes on listening. */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Closes the listener and every connection, so the client's pool for this origin goes away too. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }
}

/** Answers each request head as it completes; a body (by Content-Length) is skipped. */
function answerRequests(socket: Socket): void {
  let pending: Buffer | null = null;
  let skip = 0;
  socket.on('data', (chunk: Buffer) => {
    let data = pending ? Buffer.concat([pending, chunk]) : chunk;
    pending = null;
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
      const length = CONTENT_LENGTH.exec(data.toString('latin1', 0, end));
      skip = length ? Number(length[1]) : 0;
      data = data.subarray(end + HEAD_END.length);
      answers++;
    }
    if (data.length > 0) pending = Buffer.from(data);
    if (answers > 0) socket.write(answers === 1 ? ANSWER : Buffer.concat(Array<Buffer>(answers).fill(ANSWER)));
  });
}
