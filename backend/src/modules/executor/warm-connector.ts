import type { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { buildConnector } from 'undici';

/** Origins whose certificate expiry is remembered at most (the oldest is forgotten first). */
const CERTIFICATES_KEPT = 50_000;

/** A stashed socket nobody claimed is closed after this long: servers drop idle connections too. */
const STASH_IDLE_MS = 10_000;

function keyOf(protocol: string, hostname: string, port: string): string {
  return `${protocol}//${hostname}:${port || (protocol === 'https:' ? '443' : '80')}`;
}

/**
 * undici's connector with a stash of sockets opened ahead of time. Before a
 * burst is released, the dispatcher asks for connections to its origins; when
 * the burst starts and undici's pool asks for a connection, it gets one that
 * already finished its TCP (and TLS) handshake, so the first requests of the
 * instant do not wait for one. The sockets come from the same connector, so
 * the same address guard applies to them.
 */
export class WarmConnector {
  private readonly base: buildConnector.connector;
  private readonly stash = new Map<string, Socket[]>();
  private readonly opening = new Map<string, number>();
  /** The stash's own listeners on a socket, removed when undici takes it over. */
  private readonly listeners = new WeakMap<Socket, { close: () => void; idle: () => void }>();

  /** The expiry (valid_to) of the certificate each https origin presented on its latest new connection. */
  private readonly certificates = new Map<string, Date>();

  constructor(options: buildConnector.BuildOptions) {
    const connect = buildConnector(options);
    // Every connection, the pool's and those opened ahead, passes here once its handshake is done.
    this.base = (opts, callback) =>
      connect(opts, (...args) => {
        const [error, socket] = args;
        if (!error && socket instanceof TLSSocket) this.remember(keyOf(opts.protocol, opts.hostname, opts.port), socket);
        callback(...args);
      });
  }

  /** The expiry of the certificate the origin of `url` presented on its latest connection; null if none was seen. */
  certificateExpiry(url: URL): Date | null {
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    return this.certificates.get(keyOf(url.protocol, hostname, url.port)) ?? null;
  }

  private remember(key: string, socket: TLSSocket): void {
    const validTo = socket.getPeerCertificate()?.valid_to;
    const expiry = validTo ? new Date(validTo) : null;
    if (!expiry || Number.isNaN(expiry.getTime())) return;
    this.certificates.delete(key);
    if (this.certificates.size >= CERTIFICATES_KEPT) this.certificates.delete(this.certificates.keys().next().value!);
    this.certificates.set(key, expiry);
  }

  /** The function undici calls for a new connection. */
  readonly connect: buildConnector.connector = (options, callback) => {
    const socket = this.take(keyOf(options.protocol, options.hostname, options.port));
    // undici expects the callback after connect() returned, as a real handshake would call it.
    if (socket) queueMicrotask(() => callback(null, socket));
    else this.base(options, callback);
  };

  /** Sockets stashed or being opened for an origin. */
  ready(origin: URL): number {
    const key = keyOf(origin.protocol, origin.hostname, origin.port);
    return (this.stash.get(key)?.length ?? 0) + (this.opening.get(key) ?? 0);
  }

  /** Sockets for an origin still being opened. */
  pending(origin: URL): number {
    return this.opening.get(keyOf(origin.protocol, origin.hostname, origin.port)) ?? 0;
  }

  /** Opens `count` more connections to the origin of `url` and keeps them for the pool. Failures are left to the real request. */
  open(url: URL, count: number): void {
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const key = keyOf(url.protocol, hostname, url.port);
    for (let i = 0; i < count; i++) {
      this.opening.set(key, (this.opening.get(key) ?? 0) + 1);
      this.base({ protocol: url.protocol, hostname, host: url.host, port: url.port, servername: undefined, localAddress: null }, (error, socket) => {
        const left = (this.opening.get(key) ?? 1) - 1;
        if (left > 0) this.opening.set(key, left);
        else this.opening.delete(key);
        if (error || !socket) return;
        this.keep(key, socket as Socket);
      });
    }
  }

  /** Closes every stashed socket (shutdown). */
  close(): void {
    for (const sockets of this.stash.values()) for (const socket of sockets) socket.destroy();
    this.stash.clear();
  }

  private keep(key: string, socket: Socket): void {
    const sockets = this.stash.get(key) ?? [];
    sockets.push(socket);
    this.stash.set(key, sockets);
    const own = { close: () => this.remove(key, socket), idle: () => socket.destroy() };
    this.listeners.set(socket, own);
    socket.once('close', own.close);
    socket.once('timeout', own.idle);
    socket.setTimeout(STASH_IDLE_MS);
  }

  private take(key: string): Socket | undefined {
    const sockets = this.stash.get(key);
    while (sockets && sockets.length > 0) {
      const socket = sockets.pop()!;
      if (sockets.length === 0) this.stash.delete(key);
      const own = this.listeners.get(socket);
      if (own) {
        socket.removeListener('close', own.close);
        socket.removeListener('timeout', own.idle);
        this.listeners.delete(socket);
      }
      socket.setTimeout(0);
      // A server may have closed it meanwhile; such a socket is of no use.
      if (!socket.destroyed && socket.readyState === 'open') return socket;
      socket.destroy();
    }
    return undefined;
  }

  private remove(key: string, socket: Socket): void {
    const sockets = this.stash.get(key);
    if (!sockets) return;
    const at = sockets.indexOf(socket);
    if (at >= 0) sockets.splice(at, 1);
    if (sockets.length === 0) this.stash.delete(key);
  }
}
