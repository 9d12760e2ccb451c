import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';

/**
 * A TCP relay in front of a server, on a port of its own, that a test can
 * stop and start again: stopped, it cuts every open connection (event streams
 * included) and refuses new ones, as a server that went down does; started,
 * it relays again on the same port. The browser talks to the relay, so a
 * test sees the app lose and regain its server without restarting it.
 */
export class SwitchableRelay {
  private server: Server | null = null;
  private readonly sockets = new Set<Socket>();
  /** The relay's own port, kept across a stop so the browser finds it again. */
  private port = 0;

  private constructor(private readonly targetPort: number) {}

  static async start(targetUrl: string): Promise<SwitchableRelay> {
    const relay = new SwitchableRelay(Number(new URL(targetUrl).port));
    await relay.listen(0);
    relay.port = (relay.server!.address() as AddressInfo).port;
    return relay;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** Cuts every connection and stops listening: new connections are refused. */
  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** Relays again, on the same port. */
  async resume(): Promise<void> {
    if (!this.server) await this.listen(this.port);
  }

  private listen(port: number): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    return new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  }
}
