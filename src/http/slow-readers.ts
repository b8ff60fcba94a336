// What a caller that does not read its answers can hold (issue 34, case 1; decisions, "Fair
// share under a hostile LAN"). Answers on one connection are made one at a time: a pipelined
// request is handed to the app only once the answer before it has been flushed to the kernel,
// and meanwhile the connection is not read further (its socket paused), so a pipeline queues
// neither work nor answers; more than MAX_WAITING_REQUESTS waiting closes it. While an answer
// of an address waits for the kernel, the address's requests on its other connections wait
// too (one stuck answer per address; other addresses are not affected). Once an answer
// is handed to its socket, the bytes the kernel has not taken yet (socket.writableLength) count
// against the connection (MAX_QUEUED_BYTES_PER_CONNECTION), its caller's address (the
// connection table's grouping, MAX_QUEUED_BYTES_PER_ADDRESS) and the whole
// (MAX_QUEUED_BYTES); past the first two the connection is closed, past the whole the
// largest connection of the address holding the most. An answer whose unsent bytes have not
// gone down for WRITE_STALL_MS closes its connection (one timer per answer being written, on
// the gateway's clock). Every such close is counted (onClosed: /metrics) and logged with the
// caller's address and the reason: never a header, path or body.
// The numbers: the largest answer the API gives is about 1.7 MB (100 messages of the 16 KB
// body limit); a phone on slow Wi-Fi (1 Mbit/s) takes 8 s for 1 MB and progresses every few
// hundred ms, so none of these ever cuts it. A client that never reads holds at most one
// answer per connection, and all of them together MAX_QUEUED_BYTES: the memory bound of the
// flood contract (idle + 60 MB) with room for the rest of the process.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import { callerPlace } from './connection-limits.js';
import { createQueuedBytes, type Line, type QueuedBytes, type SlowReaderReason } from './queued-bytes.js';

export type { SlowReaderReason } from './queued-bytes.js';

/** An answer whose unsent bytes do not go down for this long closes its connection. */
export const WRITE_STALL_MS = 30_000;
/** Unsent bytes one connection may hold: over twice the largest answer (~1.7 MB). */
export const MAX_QUEUED_BYTES_PER_CONNECTION = 4 * 1024 * 1024;
/** Unsent bytes all connections of one address may hold. */
export const MAX_QUEUED_BYTES_PER_ADDRESS = 8 * 1024 * 1024;
/** Unsent bytes all callers together may hold; past it the largest holder gives up its largest. */
export const MAX_QUEUED_BYTES = 24 * 1024 * 1024;
/** Pipelined requests waiting behind an answer on one connection (browsers and curl never pipeline). */
export const MAX_WAITING_REQUESTS = 16;

export interface SlowReaderDeps {
  clock: Clock;
  /** A connection closed for not reading its answers (the /metrics counter). */
  onClosed?: ((reason: SlowReaderReason) => void) | undefined;
  logger?: Logger | undefined;
}

/** The bytes the kernel has not taken yet: libuv's count shrinks as a large answer goes out; Node's only when it is all gone. */
function unsentBytes(socket: Socket): number {
  const handle = (socket as Socket & { _handle?: { writeQueueSize?: unknown } })._handle;
  return typeof handle?.writeQueueSize === 'number' ? handle.writeQueueSize : socket.writableLength;
}

/** What follows an answer handed to its socket: its unsent bytes counted, and looked at every WRITE_STALL_MS until they are gone. */
function watchWrites(clock: Clock, bytes: QueuedBytes, close: (line: Line, reason: SlowReaderReason) => void) {
  function stalled(line: Line): void {
    line.timer = undefined;
    if (line.closed || !line.answering) return;
    const left = unsentBytes(line.socket);
    if (left >= line.left) return close(line, 'write_stalled');
    line.left = left;
    line.timer = clock.setTimer(() => stalled(line), WRITE_STALL_MS);
    bytes.set(line, line.socket.writableLength);
  }
  /** The answer's last byte is with the socket: what the kernel has not taken counts, and must keep going out. */
  return function handedOver(line: Line): void {
    if (line.closed || !line.answering) return;
    line.left = unsentBytes(line.socket);
    if (line.socket.writableLength === 0) return;
    line.timer = clock.setTimer(() => stalled(line), WRITE_STALL_MS);
    bytes.set(line, line.socket.writableLength);
  };
}

/** A connection's line, read until a request has to wait. */
function newLine(socket: Socket): Line {
  return { socket, holder: callerPlace(socket.remoteAddress).address, waiting: [], answering: false, queued: 0, left: 0, paused: false, closed: false };
}

/** The app's request handler, answering each connection's requests one at a time within the bounds above. */
export function answerInTurn(app: RequestListener, deps: SlowReaderDeps): RequestListener {
  const { clock, logger } = deps;
  const lines = new WeakMap<Socket, Line>();
  const bytes = createQueuedBytes(
    { connection: MAX_QUEUED_BYTES_PER_CONNECTION, address: MAX_QUEUED_BYTES_PER_ADDRESS, total: MAX_QUEUED_BYTES },
    (line, reason) => close(line, reason),
    (line) => next(line),
  );

  function close(line: Line, reason: SlowReaderReason): void {
    const queued = line.queued;
    forget(line);
    line.socket.destroy();
    deps.onClosed?.(reason);
    logger?.warn({ caller: line.holder, reason, queuedBytes: queued }, 'closed a connection whose answers were not being read');
  }
  const handedOver = watchWrites(clock, bytes, close);

  function forget(line: Line): void {
    if (line.closed) return;
    line.closed = true;
    line.timer?.cancel();
    line.waiting.length = 0;
    bytes.leave(line);
  }

  /** The next waiting request, unless an answer of this connection or of its address is still going out; else read on. */
  function next(line: Line): void {
    if (line.closed || line.answering) return;
    const waiting = line.waiting.shift();
    if (waiting && !bytes.mayAnswer(line)) line.waiting.unshift(waiting);
    else if (waiting) return answer(line, waiting[0], waiting[1]);
    else if (line.paused) {
      line.paused = false;
      line.socket.resume();
    }
  }

  function answer(line: Line, req: IncomingMessage, res: ServerResponse): void {
    line.answering = true;
    // 'prefinish': end() has handed the last byte to the socket (emitted inside end(), so looked at after it).
    res.once('prefinish', () => queueMicrotask(() => handedOver(line)));
    // Flushed to the kernel, or abandoned: its bytes no longer count (lines of the address waiting for that go on).
    res.once('close', () => {
      line.answering = false;
      line.timer?.cancel();
      line.timer = undefined;
      if (line.closed) return;
      bytes.set(line, 0);
      next(line);
    });
    app(req, res);
  }

  return (req, res) => {
    let line = lines.get(req.socket);
    if (!line) {
      const opened = (line = newLine(req.socket));
      lines.set(req.socket, opened);
      req.socket.once('close', () => forget(opened));
    }
    if (line.closed) return;
    if (line.waiting.length >= MAX_WAITING_REQUESTS) return close(line, 'pipeline');
    line.waiting.push([req, res]);
    next(line);
    if (line.waiting.length === 0 || line.paused) return;
    line.paused = true;
    line.socket.pause();
  };
}
