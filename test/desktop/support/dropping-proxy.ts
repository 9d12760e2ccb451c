import { createServer, type Server, type Socket, connect } from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A TCP relay between the desktop units and the test server, so a test can
 * cut live connections (the server "drops" the stream) and refuse new ones
 * (the machine is offline) without stopping the server. It also keeps the
 * head of each request, to see the headers a reconnect sent.
 */
export class DroppingProxy {
  readonly requestHeads: string[] = [];
  private readonly sockets = new Set<Socket>();
  private server: Server | null = null;
  private port = 0;

  private constructor(private readonly targetPort: number) {}

  static async start(targetUrl: string): Promise<DroppingProxy> {
    const proxy = new DroppingProxy(Number(new URL(targetUrl).port));
    await proxy.listen();
    return proxy;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Connections currently relayed (each counts its two sockets once). */
  get openConnections(): number {
    return this.sockets.size;
  }

  /** Cuts every open connection; new ones are still accepted. */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** Cuts every connection and refuses new ones until `resume`. */
  async goOffline(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.dropAll();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }

  resume(): Promise<void> {
    return this.listen();
  }

  async close(): Promise<void> {
    await this.goOffline();
  }

  private listen(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      this.sockets.add(client);
      // Keep-alive connections carry several requests: every request head found in a chunk is kept.
      client.on('data', (chunk: Buffer) => {
        for (const match of chunk.toString('latin1').matchAll(/(?:^|\r\n)((?:GET|POST|PUT|DELETE) \/[^\r]*\r\n(?:[^\r]+\r\n)*)\r\n/g)) {
          this.requestHeads.push(match[1]);
        }
      });
      client.pipe(upstream).pipe(client);
      const end = () => {
        client.destroy();
        upstream.destroy();
        this.sockets.delete(client);
      };
      client.on('close', end).on('error', end);
      upstream.on('close', end).on('error', end);
    });
    this.server = server;
    return new Promise((resolve) => server.listen(this.port, '127.0.0.1', () => {
      this.port = (server.address() as AddressInfo).port;
      resolve();
    }));
  }
}
