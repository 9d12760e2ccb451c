import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';

export const MCP_PATH = '/mcp';
/** Largest JSON-RPC request body accepted (a job body is at most 64 KiB; this leaves room for the envelope). */
const MAX_BODY_BYTES = 1024 * 1024;
/** Sessions kept at once; the oldest is closed to make room (clients that vanish never send DELETE). */
const MAX_SESSIONS = 100;

interface Session {
  transport: StreamableHTTPServerTransport;
  server: McpServer;
}

export interface RunningHttpServer {
  url: string;
  close(): Promise<void>;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

function sendJsonRpcError(res: ServerResponse, status: number, message: string, code = -32000): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new RangeError('Request body too large');
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Whether a request's Origin may use the server. Browsers send Origin with
 * every cross-site request; clients that are not browsers send none and are
 * let through (the Host check and the bind address guard them). A page on
 * this machine (a loopback origin, any port: the Inspector's UI, say) is
 * allowed; any other site only when listed with --allow-origin, so a web page
 * the user visits cannot drive tools with this server's API key.
 */
export function originAllowed(origin: string | undefined, allowedOrigins: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  if (allowedOrigins.has(origin.toLowerCase())) return true;
  try {
    const { protocol, hostname } = new URL(origin);
    return (protocol === 'http:' || protocol === 'https:') && LOOPBACK.has(hostname.replace(/^\[(.*)\]$/, '$1'));
  } catch {
    // "null" (a sandboxed frame, a file:// page) and anything unreadable.
    return false;
  }
}

/**
 * The Streamable HTTP transport on `POST/GET/DELETE /mcp`, one MCP session
 * (and one McpServer) per client. Bound to loopback, it accepts only loopback
 * Host headers, so a web page cannot reach it through DNS rebinding; on any
 * address it refuses browser requests from origins not allowed (originAllowed).
 */
export async function startHttpServer(createSessionServer: () => McpServer, port: number, host: string, allowedOrigins: readonly string[] = []): Promise<RunningHttpServer> {
  const origins = new Set(allowedOrigins.map((origin) => origin.toLowerCase()));
  const sessions = new Map<string, Session>();
  let allowedHosts: Set<string> | null = null;

  const closeSession = async (id: string) => {
    const session = sessions.get(id);
    if (!session) return;
    sessions.delete(id);
    await session.server.close().catch(() => undefined);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== MCP_PATH) return sendJsonRpcError(res, 404, `Not found: the MCP endpoint is ${MCP_PATH}`);
    if (allowedHosts && !allowedHosts.has((req.headers.host ?? '').toLowerCase())) return sendJsonRpcError(res, 403, `Invalid Host header: ${req.headers.host ?? ''}`);
    if (!originAllowed(req.headers.origin, origins)) return sendJsonRpcError(res, 403, `Origin not allowed: ${req.headers.origin ?? ''} (start the server with --allow-origin ${req.headers.origin ?? ''} to allow it)`);

    const sessionId = req.headers['mcp-session-id'];
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId) : undefined;
    if (req.method === 'POST') {
      let body: unknown;
      try {
        body = await readJson(req);
      } catch (error) {
        return error instanceof RangeError ? sendJsonRpcError(res, 413, error.message) : sendJsonRpcError(res, 400, 'Parse error: the body is not JSON', -32700);
      }
      if (existing) return existing.transport.handleRequest(req, res, body);
      if (sessionId !== undefined) return sendJsonRpcError(res, 404, 'Session not found; initialize a new session', -32001);
      if (!isInitializeRequest(body)) return sendJsonRpcError(res, 400, 'Bad Request: no session id; the first request must be initialize');

      const server = createSessionServer();
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (id) => {
          sessions.set(id, { transport, server });
          if (sessions.size > MAX_SESSIONS) void closeSession(sessions.keys().next().value!);
        },
      });
      transport.onclose = () => {
        if (transport.sessionId) sessions.delete(transport.sessionId);
      };
      await server.connect(transport);
      return transport.handleRequest(req, res, body);
    }
    if (req.method === 'GET' || req.method === 'DELETE') {
      if (!existing) return sendJsonRpcError(res, sessionId === undefined ? 400 : 404, sessionId === undefined ? 'Bad Request: Mcp-Session-Id header is required' : 'Session not found', -32001);
      return existing.transport.handleRequest(req, res);
    }
    res.setHeader('allow', 'GET, POST, DELETE');
    return sendJsonRpcError(res, 405, 'Method not allowed');
  };

  const httpServer: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('cronbeam-mcp: request failed:', error instanceof Error ? error.message : error);
      if (!res.headersSent) sendJsonRpcError(res, 500, 'Internal error', -32603);
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(port, host, () => resolve());
  });
  const { port: boundPort } = httpServer.address() as AddressInfo;
  if (LOOPBACK.has(host)) {
    allowedHosts = new Set([`127.0.0.1:${boundPort}`, `localhost:${boundPort}`, `[::1]:${boundPort}`]);
  }
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${boundPort}${MCP_PATH}`,
    close: async () => {
      await Promise.all([...sessions.keys()].map(closeSession));
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}
