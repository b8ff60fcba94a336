// Answers on one connection are made one at a time: a pipelined request waits until the
// answer before it has been flushed to the kernel, and then only after the I/O already pending
// (so the requests other connections sent meanwhile go first); meanwhile the connection is not
// read further (socket.pause), so a pipeline queues neither work nor answers; more than
// MAX_WAITING_REQUESTS waiting closes it. A request with nothing before it goes to the app at
// once, unless the answer pace says wait (answer-order.ts). What the answers hold once handed
// to the socket is unsent-bytes.ts's. Every close is counted (onClosed: /metrics) and logged
// with the caller's address and the reason, never a header, path or body. A request with a
// body to wait for that has not fully arrived REQUEST_TIMEOUT_MS after its headers closes its
// connection (a timer only for such a request). The per-request path allocates no closure.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import type { Clock } from '../../core/clock.js';
import { createAnswerOrder } from './answer-order.js';
import { createQueuedBytes, watchWrites, type Line, type SlowReaderReason } from './unsent-bytes.js';

export type { Line, SlowReaderReason } from './unsent-bytes.js';
export { WRITE_STALL_MS } from './unsent-bytes.js';
import { REQUEST_TIMEOUT_MS } from './limits.js';

/** Pipelined requests waiting behind an answer on one connection (browsers and curl never pipeline). */
export const MAX_WAITING_REQUESTS = 16;

export interface GateDeps {
  clock: Clock;
  /** A connection closed for not reading its answers (the /metrics counter). */
  onClosed?: ((reason: SlowReaderReason) => void) | undefined;
  logger?: Logger | undefined;
  /** A request is handed to the app, and its answer is over (flushed or abandoned). */
  onStart?: ((line: Line) => void) | undefined;
  onEnd?: ((line: Line) => void) | undefined;
}

/** The request's framing announces a body (RFC 9112 6.3): a Transfer-Encoding, or a Content-Length above 0. */
function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Closes a request's connection when its announced body has not fully arrived REQUEST_TIMEOUT_MS after its headers. */
function awaitBody(clock: Clock, req: IncomingMessage, res: ServerResponse): void {
  const timer = clock.setTimer(() => {
    if (!req.complete) req.socket.destroy();
  }, REQUEST_TIMEOUT_MS);
  const done = () => timer.cancel();
  req.once('end', done);
  res.once('close', done);
}

/** Each request joins its connection's line: answered now when nothing is before it, else after (the socket paused). */
function gateListener(
  app: RequestListener,
  lineOf: (socket: Socket) => Line | undefined,
  next: (line: Line) => void,
  close: (line: Line, reason: SlowReaderReason) => void,
): RequestListener {
  return (req, res) => {
    const line = lineOf(req.socket);
    if (!line) return app(req, res);
    if (line.closed) return;
    if (line.waiting.length >= MAX_WAITING_REQUESTS) return close(line, 'pipeline');
    line.waiting.push([req, res]);
    if (!line.answering && line.waiting.length === 1) return next(line);
    // Behind another: the connection is not read further until they are answered.
    if (line.paused) return;
    line.paused = true;
    line.socket.pause();
  };
}

/** A new connection's line, with its listeners made once. */
function newLine(socket: Socket, holder: string, made: (line: Line) => void, over: (line: Line) => void): Line {
  const line: Line = {
    socket,
    holder,
    asking: undefined,
    entry: undefined,
    waiting: [],
    answering: false,
    before: 0,
    queued: 0,
    left: 0,
    timer: undefined,
    paused: false,
    closed: false,
    made: () => made(line),
    over: () => over(line),
  };
  return line;
}

/** A connection whose pipeline is answered is read again. */
function readAgain(line: Line): void {
  if (!line.paused) return;
  line.paused = false;
  line.socket.resume();
}

export function createAnswerGate(deps: GateDeps) {
  const { clock, logger } = deps;
  let app: RequestListener = () => {};
  const order = createAnswerOrder<Line>({ clock, start: (line) => answerNext(line) });
  const bytes = createQueuedBytes((line, reason) => close(line, reason));
  const handedOver = watchWrites(clock, bytes, (line, reason) => close(line, reason));
  function close(line: Line, reason: SlowReaderReason): void {
    const queuedBytes = line.queued;
    forget(line);
    line.socket.destroy();
    deps.onClosed?.(reason);
    logger?.warn({ caller: line.holder, reason, queuedBytes }, 'closed a connection whose answers were not being read');
  }
  function forget(line: Line): void {
    if (line.closed) return;
    line.closed = true;
    line.timer?.cancel();
    line.waiting.length = 0;
    order.leave(line);
    bytes.clear(line);
  }

  /** Its next request waits for its turn; with none, the connection is read again. */
  function next(line: Line): void {
    if (line.closed || line.answering) return;
    if (line.waiting.length === 0) return readAgain(line);
    line.asking = line.waiting[0]![0].url;
    if (order.admit(line)) answerNext(line);
  }

  function answerNext(line: Line): void {
    const waiting = line.waiting.shift();
    if (line.closed || line.answering || !waiting) return;
    const [req, res] = waiting;
    line.before = line.socket.bytesWritten;
    line.answering = true;
    // 'prefinish': end() has handed the answer's last byte to the socket. 'close': flushed, or abandoned.
    res.on('prefinish', line.made);
    res.on('close', line.over);
    if (!req.complete && hasBody(req)) awaitBody(clock, req, res);
    deps.onStart?.(line);
    app(req, res);
  }

  function made(line: Line): void {
    order.charge(line, line.socket.bytesWritten - line.before);
    handedOver(line);
  }
  /** Its bytes no longer count, and the connection's next request may go. */
  function over(line: Line): void {
    line.answering = false;
    line.timer?.cancel();
    line.timer = undefined;
    deps.onEnd?.(line);
    if (line.closed) return;
    bytes.clear(line);
    // A pipelined request after the I/O already pending: other connections' requests read meanwhile go first.
    if (line.waiting.length > 0) setImmediate(next, line);
    else next(line);
  }

  return {
    /** A new connection's line (its caller's address as the connection table counts it). */
    open(socket: Socket, holder: string): Line {
      const line = newLine(socket, holder, made, over);
      socket.once('close', () => forget(line));
      return line;
    },
    /** The server's request listener: the app's requests through the gate, line by line. */
    handler(appListener: RequestListener, lineOf: (socket: Socket) => Line | undefined): RequestListener {
      app = appListener;
      return gateListener(appListener, lineOf, next, close);
    },
    queuedBytes: bytes.total,
  };
}

export type AnswerGate = ReturnType<typeof createAnswerGate>;
