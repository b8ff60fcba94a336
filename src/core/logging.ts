// The process logger (pino). On a terminal each JSON line is shown as one short human
// line; otherwise (Termux:Boot, runit's svlogd) the JSON lines go to stdout as they are.
// Defence in depth: fields that could hold a secret or a message body are redacted.
// The per-request JSON lines are written in batches (under load a request line costs no
// write of its own): one that comes more than a second after the last write is written at
// once; request lines in a burst wait at most a second (a timer armed only while lines
// wait, so an idle gateway has none) or until 4 KB have gathered. Every other line (start,
// hand-offs, warnings, errors) is written at once with whatever waits before it, so a
// gateway killed with SIGKILL loses at most a second of request lines, never an event.
// Warnings and errors are also handed to whoever taps them (tapWarnings: the kept log of
// SMSGate's GET /logs), as the JSON lines pino wrote, redaction done.
import { pino, type Logger } from 'pino';
import { Writable } from 'node:stream';
import { systemClock, type Clock, type Timer } from './clock.js';

const REDACT = [
  'authorization',
  'headers.authorization',
  'req.headers.authorization',
  'key',
  'apiKey',
  'secret',
  'body',
  'text',
  'message.body',
];

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
const SKIP = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId']);

/** One JSON log line as "HH:MM:SS INFO msg k=v ...". */
export function formatLine(json: string): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json) as Record<string, unknown>;
  } catch {
    return json;
  }
  const time = new Date(typeof entry.time === 'number' ? entry.time : Date.now()).toTimeString().slice(0, 8);
  const level = LEVELS[entry.level as number] ?? String(entry.level);
  if (entry.msg === 'request') {
    const field = (k: string) => {
      const v = entry[k];
      return typeof v === 'string' || typeof v === 'number' ? String(v) : '-';
    };
    return `${time} ${field('method')} ${field('route')} ${field('status')} ${field('ms')}ms ${field('caller')}`;
  }
  const rest = Object.entries(entry)
    .filter(([k]) => !SKIP.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  const msg = typeof entry.msg === 'string' ? entry.msg : '';
  return `${time} ${level} ${msg}${rest ? ` ${rest}` : ''}`;
}

/** Lines gathered before a write, at most. */
export const BATCH_BYTES = 4096;
/** How long a line may wait for others, at most. */
export const BATCH_MS = 1000;
/** Every batcher still holding lines: written out when the process exits. */
const batchers = new Set<() => void>();
let exitHooked = false;

/** The one line per request (http/request-line.ts's onResponse hook): pino writes msg last. */
export const isRequestLine = (line: string): boolean => line.endsWith('"msg":"request"}\n');

/** A pino destination that writes lines to `out`, request lines in batches (see the header). */
export function batchedDestination(
  out: NodeJS.WritableStream,
  clock: Clock = systemClock,
  canWait: (line: string) => boolean = isRequestLine,
) {
  let pending = '';
  let timer: Timer | undefined;
  let lastWrite = -Infinity;
  const flush = (done?: () => void) => {
    timer?.cancel();
    timer = undefined;
    batchers.delete(flush);
    lastWrite = clock.monotonicMs();
    if (pending !== '') {
      const text = pending;
      pending = '';
      out.write(text);
    }
    if (typeof done === 'function') done();
  };
  if (!exitHooked) {
    exitHooked = true;
    process.once('exit', () => {
      for (const f of [...batchers]) f();
    });
  }
  return {
    write(line: string) {
      pending += line;
      if (!canWait(line) || pending.length >= BATCH_BYTES || clock.monotonicMs() - lastWrite > BATCH_MS) return flush();
      batchers.add(flush);
      timer ??= clock.setTimer(() => flush(), Math.max(0, lastWrite + BATCH_MS - clock.monotonicMs()));
    },
    /** Writes what waits now (pino's logger.flush() calls it). */
    flush,
  };
}

/** The one line per request (http/request-line.ts): what it says, never headers, bodies or queries. */
export interface RequestLine {
  reqId: string;
  method: string;
  route: string;
  status: number;
  ms: number;
  caller: string;
}

/**
 * Where a logger made by createLogger keeps the destination createLogger gave pino (the
 * batcher, or the terminal's short form): our own property, as pino has no public way to
 * read a logger's destination back.
 */
const DESTINATION = Symbol('sms-gateway log destination');
/** The listeners of a logger made by createLogger that are handed its warnings and errors. */
const WARNING_TAPS = Symbol('sms-gateway log warning taps');
type LoggerWithDestination = Logger & {
  [DESTINATION]?: { write(text: string): void };
  [WARNING_TAPS]?: Set<(line: string) => void>;
};

/** Whether a JSON line of pino's is a warning or worse (40 and up): pino writes the level first. */
export const isWarningLine = (line: string): boolean => line.startsWith('{"level":') && line.charCodeAt(9) >= 52;

/**
 * Hands each warning and error line of a logger made by createLogger to `tap`, after
 * redaction; returns the unsubscribe. A logger made elsewhere (a test's own pino) has none to
 * hand: nothing is tapped. A tap that throws loses its line, never the log's.
 */
export function tapWarnings(logger: Logger, tap: (line: string) => void): () => void {
  const taps = (logger as LoggerWithDestination)[WARNING_TAPS];
  if (!taps) return () => {};
  taps.add(tap);
  return () => void taps.delete(tap);
}

/** The destination that hands warnings to the taps before writing every line as `inner` does. */
function tappedDestination(inner: { write(text: string): unknown; flush?: (cb?: () => void) => void }) {
  const taps = new Set<(line: string) => void>();
  const write = (line: string) => {
    if (taps.size > 0 && isWarningLine(line)) {
      for (const tap of taps) {
        try {
          tap(line);
        } catch {
          // the tap's own failure: the line is still written
        }
      }
    }
    return inner.write(line);
  };
  const flush = inner.flush?.bind(inner);
  return { taps, destination: flush ? { write, flush } : { write } };
}

/**
 * Writes the request line at info level with the bytes `logger.info({ ...line }, 'request')`
 * writes (a test compares them), straight to the destination createLogger made for the
 * logger (batched, or shown short on a terminal, as any line). It is the one line per
 * request, and written through pino (its serializers, redaction, level lookup) it was about
 * a sixth of a /health request's CPU, for six fields that hold nothing to redact. A logger
 * made elsewhere (a test's own pino) gets pino's logger.info, the same bytes.
 */
export function requestLineWriter(logger: Logger): (line: RequestLine) => void {
  const stream = (logger as LoggerWithDestination)[DESTINATION];
  if (!stream) return (line) => logger.info({ ...line }, 'request');
  const text = JSON.stringify;
  const info = logger.levels.values.info;
  return (l) =>
    stream.write(
      `{"level":${info},"time":${Date.now()},"reqId":${text(l.reqId)},"method":${text(l.method)},` +
        `"route":${text(l.route)},"status":${l.status},"ms":${l.ms},"caller":${text(l.caller)},"msg":"request"}\n`,
    );
}

export function createLogger(
  level: string,
  options: { pretty: boolean; destination?: NodeJS.WritableStream; clock?: Clock },
): Logger {
  const out = options.destination ?? process.stdout;
  const opts = { level, redact: { paths: REDACT, censor: '[redacted]' }, base: undefined };
  const destination = options.pretty
    ? new Writable({
        write(chunk: Buffer, _enc, cb) {
          for (const line of chunk.toString('utf8').split('\n')) if (line) out.write(`${formatLine(line)}\n`);
          cb();
        },
      })
    : batchedDestination(out, options.clock);
  const tapped = tappedDestination(destination);
  const logger: LoggerWithDestination = pino(opts, tapped.destination);
  // Request lines (info) skip the taps: requestLineWriter writes them to the destination itself.
  logger[DESTINATION] = destination;
  logger[WARNING_TAPS] = tapped.taps;
  return logger;
}
