// The process logger (pino). On a terminal each JSON line is shown as one short human
// line; otherwise (Termux:Boot, runit's svlogd) the JSON lines go to stdout as they are.
// Defence in depth: fields that could hold a secret or a message body are redacted.
import { pino, type Logger } from 'pino';
import { Writable } from 'node:stream';

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
    return `${time} ${entry.method} ${entry.route} ${entry.status} ${entry.ms}ms ${entry.caller}`;
  }
  const rest = Object.entries(entry)
    .filter(([k]) => !SKIP.has(k))
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(' ');
  return `${time} ${level} ${entry.msg ?? ''}${rest ? ` ${rest}` : ''}`;
}

export function createLogger(level: string, options: { pretty: boolean; destination?: NodeJS.WritableStream }): Logger {
  const out = options.destination ?? process.stdout;
  const opts = { level, redact: { paths: REDACT, censor: '[redacted]' }, base: undefined };
  if (!options.pretty) return pino(opts, out);
  const pretty = new Writable({
    write(chunk: Buffer, _enc, cb) {
      for (const line of chunk.toString('utf8').split('\n')) if (line) out.write(`${formatLine(line)}\n`);
      cb();
    },
  });
  return pino(opts, pretty);
}
