import { createServer, type Socket } from 'node:net';
import { parentPort } from 'node:worker_threads';

/**
 * The benchmark target's server, run in a worker thread by BenchTarget: a
 * minimal HTTP/1.1 keep-alive responder that timestamps each request as its
 * head arrives and answers 200 at once. Real targets run on other machines;
 * this one shares the two cores with the system under test, so it does as
 * little as HTTP allows (node:http costs several times more per request and
 * its own delays would be counted as the scheduler's lateness). It reads
 * request heads and skips bodies by their Content-Length; that is all the
 * executor sends.
 *
 * It has a thread of its own because the embedded database runs in the
 * benchmark's main thread: a long query there (a 2,000-row write) would
 * otherwise hold back reading the requests, and their timestamps.
 *
 * Messages out: {port} once listening, then batches of {paths, times}
 * every few milliseconds. Message in: 'close'.
 */
const ORIGIN = performance.timeOrigin;
const HEAD_END = Buffer.from('\r\n\r\n');
const RESPONSE = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 11\r\n\r\n{"ok":true}');
const FLUSH_MS = 20;

const port = parentPort!;
const sockets = new Set<Socket>();
let paths: string[] = [];
let times: number[] = [];

const flusher = setInterval(() => {
  if (paths.length === 0) return;
  port.postMessage({ paths, times });
  paths = [];
  times = [];
}, FLUSH_MS);

const server = createServer({ noDelay: true }, serve);
server.listen(0, '127.0.0.1', () => port.postMessage({ port: (server.address() as { port: number }).port }));

port.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(flusher);
  for (const socket of sockets) socket.destroy();
  server.close(() => {
    if (paths.length > 0) port.postMessage({ paths, times });
    port.close();
  });
});

function serve(socket: Socket): void {
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
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
      paths.push(head.slice(firstSpace + 1, head.indexOf(' ', firstSpace + 1)));
      times.push(arrivedAt);
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
      skip = length ? Number(length[1]) : 0;
      answers++;
    }
    pending = data.length > 0 ? Buffer.from(data) : Buffer.alloc(0);
    if (answers === 1) socket.write(RESPONSE);
    else if (answers > 1) socket.write(Buffer.concat(Array(answers).fill(RESPONSE)));
  });
}
