// What a caller that does not read its answers can hold (issue 34, case 1; decisions, "Fair
// share under a hostile LAN"). No request goes to the app as Node reads it: it waits for its
// turn (http/fair-turns.ts: one per event-loop turn, the address with the least answer bytes
// served lately first, at the pace of http/answer-budget.ts), so a newcomer is answered within
// a turn or two however much others have queued, and a flood of large pages is built no
// faster than the budget. Answers on one connection are made one at a time: a pipelined
// request waits until the answer before it has been flushed to the kernel, and meanwhile the
// connection is not read further (its socket paused), so a pipeline queues neither work nor
// answers; more than MAX_WAITING_REQUESTS waiting closes it. Once an answer is handed to its
// socket, the bytes the kernel has not taken yet (socket.writableLength) count against the
// connection (MAX_QUEUED_BYTES_PER_CONNECTION), its caller's address (the connection table's
// grouping, MAX_QUEUED_BYTES_PER_ADDRESS) and the whole (MAX_QUEUED_BYTES); past the first two
// the connection is closed, past the whole the largest connection of the address holding the
// most. An answer whose unsent bytes have not gone down for WRITE_STALL_MS closes its
// connection (one timer per answer being written, on the gateway's clock). Every such close is
// counted (onClosed: /metrics) and logged with the caller's address and the reason: never a
// header, path or body. The gate says on the server when it hands a request over (onStart,
// http/answer-started.ts): the connection table counts a connection busy only from then.
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
import { createFairTurns, type FairTurns } from './fair-turns.js';
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
  /** A request is handed to the app (after its turn: http/answer-started.ts). */
  onStart?: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
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

/** The app's request handler, answering each connection's requests one at a time, in fair turns, within the bounds above. */
export function answerInTurn(app: RequestListener, deps: SlowReaderDeps): RequestListener {
  const { clock, logger } = deps;
  const lines = new WeakMap<Socket, Line>();
  const bytes = createQueuedBytes(
    { connection: MAX_QUEUED_BYTES_PER_CONNECTION, address: MAX_QUEUED_BYTES_PER_ADDRESS, total: MAX_QUEUED_BYTES },
    (line, reason) => close(line, reason),
  );
  const turns: FairTurns<Line> = createFairTurns<Line>({ clock, start: (line) => answerNext(line) });

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
    turns.leave(line);
    bytes.leave(line);
  }

  /** Its next request waits for its turn; with none, the connection is read again. */
  function next(line: Line): void {
    if (line.closed || line.answering) return;
    if (line.waiting.length > 0) return turns.ready(line);
    if (!line.paused) return;
    line.paused = false;
    line.socket.resume();
  }

  function answerNext(line: Line): void {
    const waiting = line.waiting.shift();
    if (line.closed || line.answering || !waiting) return;
    const [req, res] = waiting;
    const before = line.socket.bytesWritten;
    line.answering = true;
    // 'prefinish': end() has handed the last byte to the socket (emitted inside end(), so looked at after it).
    res.once('prefinish', () =>
      queueMicrotask(() => {
        turns.charge(line, line.socket.bytesWritten - before);
        handedOver(line);
      }),
    );
    // Flushed to the kernel, or abandoned: its bytes no longer count, and the connection's next request may have its turn.
    res.once('close', () => {
      line.answering = false;
      line.timer?.cancel();
      line.timer = undefined;
      if (line.closed) return;
      bytes.set(line, 0);
      next(line);
    });
    deps.onStart?.(req, res);
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
    // A request pipelined behind another: the connection is not read further until they are answered.
    if (line.paused || (!line.answering && line.waiting.length < 2)) return;
    line.paused = true;
    line.socket.pause();
  };
}
