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
  /** While set, new connections are accepted but wait here before they reach the server. */
  private held: Array<() => void> | null = null;
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

  /** Cuts every open connection; new ones are still accepted. */
  dropAll(): void {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  /** New connections wait (a slow network) until `release`: what the server stores meanwhile happens in the gap. */
  holdNewConnections(): void {
    this.held ??= [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const relay of waiting) relay();
  }

  /** Connections accepted and waiting for `release`. */
  get heldConnections(): number {
    return this.held?.length ?? 0;
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
      this.sockets.add(client);
      const relay = () => {
        const upstream = connect(this.targetPort, '127.0.0.1');
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
        };
        upstream.on('close', end).on('error', end);
        client.on('close', end);
      };
      client.on('close', () => this.sockets.delete(client)).on('error', () => client.destroy());
      if (this.held) this.held.push(relay);
      else relay();
    });
    this.server = server;
    return new Promise((resolve) => server.listen(this.port, '127.0.0.1', () => {
      this.port = (server.address() as AddressInfo).port;
      resolve();
    }));
  }
}
