// Answers for requests Node's HTTP parser rejects before Fastify sees them (bad request
// line, oversized headers, conflicting lengths, a request not complete in time). They skip
// every hook, so the local-network guard is applied here too, and the answer uses the
// project's error envelope.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { isLocalAddress } from '../core/addresses.js';
import { FORBIDDEN_BODY } from './local-network.js';
import { errorBody, GatewayError } from '../core/errors.js';

export function clientErrorAnswer(err: NodeJS.ErrnoException, remoteAddress: string | undefined): { status: number; body: string } {
  if (!isLocalAddress(remoteAddress)) return { status: 403, body: JSON.stringify(FORBIDDEN_BODY) };
  const [status, message] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request was not complete in time.']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are too large.']
        : [400, 'The request is not valid HTTP.'];
  // The parser's own statuses (408, 431, 400), all invalid_request: STATUS_OF gives 400 only.
  return { status, body: JSON.stringify(errorBody(new GatewayError('invalid_request', message))) };
}

export function handleClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, body } = clientErrorAnswer(err, socket.remoteAddress);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
