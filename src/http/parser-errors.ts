// Answers for requests Node's HTTP parser rejects before Fastify sees them (bad request
// line, oversized headers, conflicting lengths, a request not complete in time). They skip
// every hook, so the guards are asked here too (http/guards.ts: such a request has no
// headers to check, so only the local-network guard applies), and the answer uses the
// project's error envelope.
import type { Socket } from 'node:net';
import { refusalAnswer, unreadableRequestRefusal } from './guards.js';
import { requireBuiltin } from '../core/builtin.js';
import { errorBody, gatewayError } from '../core/errors.js';

// Required, not imported (core/builtin.ts): importing node:http would load Node's fetch
// stack at every start for a table of reason phrases.
const { STATUS_CODES } = requireBuiltin<typeof import('node:http')>('node:http');

export function parserErrorAnswer(
  err: NodeJS.ErrnoException,
  remoteAddress: string | undefined,
): { status: number; body: string } {
  const refusal = unreadableRequestRefusal(remoteAddress);
  if (refusal) {
    const { status, body } = refusalAnswer(refusal);
    return { status, body: JSON.stringify(body) };
  }
  const [status, text] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? ([408, 'requestTimeout'] as const)
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? ([431, 'headersTooLarge'] as const)
        : ([400, 'notHttp'] as const);
  // The parser's own statuses (408, 431, 400), all invalid_request: STATUS_OF gives 400 only.
  return { status, body: JSON.stringify(errorBody(gatewayError('invalid_request', text))) };
}

/** Fastify's clientErrorHandler: writes the answer on the raw socket and closes it. */
export function answerParserError(err: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const { status, body } = parserErrorAnswer(err, socket.remoteAddress);
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ` +
        `${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}
