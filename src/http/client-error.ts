/**
 * Node answers a request it cannot parse itself, before the app sees it — a request line
 * and headers over its 16 KB limit, or bytes that are not HTTP — with a bare status and an
 * empty body. This answers those in the API's error envelope instead, as every other
 * refusal is, and closes the connection (what follows on it cannot be read either).
 */
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { headersTooLarge, malformedRequest } from '../core/errors.js';

export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || !error.code?.startsWith('HPE_')) {
    socket.destroy();
    return;
  }
  const refusal = error.code === 'HPE_HEADER_OVERFLOW' ? headersTooLarge() : malformedRequest();
  const body = JSON.stringify({ error: refusal.body });
  socket.end(
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
