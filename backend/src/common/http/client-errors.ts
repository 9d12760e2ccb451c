import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** What the answer to a request Node's HTTP parser refused says, by the parser's error code. */
function answerFor(code: string | undefined): { status: number; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, detail: 'Request headers are too large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, detail: 'Request was not received in time' };
    case 'HPE_INVALID_METHOD':
      return { status: 400, detail: 'Malformed request: unknown method' };
    case 'HPE_INVALID_HEADER_TOKEN':
      return { status: 400, detail: 'Malformed request: invalid character in a header name' };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { status: 400, detail: 'Malformed request: conflicting or invalid Content-Length / Transfer-Encoding' };
    default:
      return { status: 400, detail: 'Malformed request' };
  }
}

/**
 * Requests Node's parser refuses (bad header names, conflicting framing
 * headers, oversized headers) never reach a route. Fastify's own answer is
 * its error object; with this (its clientErrorHandler) they get the same
 * `{"detail": ...}` body as every other error, and the connection is closed,
 * since the parser cannot tell where the next request would start.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // Nothing can be answered on a connection the client already reset or that is mid-response.
  if (error.code === 'ECONNRESET' || !socket.writable || (socket as Duplex & { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const { status, detail } = answerFor(error.code);
  const body = JSON.stringify({ detail });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
