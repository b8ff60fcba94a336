// The kept log (SMSGate's GET /logs): the gateway's warnings and errors, handed over by the
// logger's tap (core/logging.ts tapWarnings) as pino's JSON lines, redaction done, kept in
// the database so they outlive a restart. Lines are gathered and written in one transaction
// at most once a second (a timer armed only while lines wait), so a flood of warnings costs
// one write a second, not one a line; of a flood, the newest LOGS_KEPT wait at most. A write
// that fails drops its batch silently: logging that failure would feed the log it failed to keep.
import type { Clock, Timer } from '../core/clock.js';
import { LOGS_KEPT, type LogEntriesStore, type NewLogEntry } from '../store/log-entries.js';

/** How long a line may wait for others before the batch is written. */
export const LOG_BATCH_MS = 1000;
/** The longest context kept, as JSON text. */
const CONTEXT_MAX = 2000;
/** pino's own fields: the entry's time, priority and message, or nothing to keep. */
const OWN_FIELDS = new Set(['level', 'time', 'msg', 'pid', 'hostname']);

/** Which part of the gateway a line is about, from its message's words (the lines name no module). */
const MODULES: readonly [RegExp, string][] = [
  [/\bmqtt\b|broker|home assistant/i, 'mqtt'],
  [/webhook/i, 'webhooks'],
  [/inbox|received/i, 'inbox'],
  [/e-?mail|smtp/i, 'email'],
  [/hand-off|\bsend\b|\bsms\b|queue|message|answer|sender/i, 'messages'],
  [/connection|request/i, 'http'],
];

export const moduleOf = (message: string): string => MODULES.find(([words]) => words.test(message))?.[1] ?? 'gateway';

/** An error object as kept: its type and message, never its stack. */
const plain = (value: unknown): unknown =>
  value !== null && typeof value === 'object' && 'message' in value
    ? { type: (value as { type?: unknown }).type, message: value.message }
    : value;

/** One JSON line of pino's as an entry logged `at` (the gateway's clock); undefined for a line below warn. */
export function entryOf(line: string, at: number): NewLogEntry | undefined {
  let fields: Record<string, unknown>;
  try {
    fields = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const level = typeof fields.level === 'number' ? fields.level : 0;
  if (level < 40) return undefined;
  const message = typeof fields.msg === 'string' ? fields.msg : '';
  const rest = Object.entries(fields).filter(([k]) => !OWN_FIELDS.has(k));
  let context = rest.length === 0 ? null : JSON.stringify(Object.fromEntries(rest.map(([k, v]) => [k, plain(v)])));
  if (context !== null && context.length > CONTEXT_MAX) context = JSON.stringify({ truncated: true });
  return {
    at,
    priority: level >= 50 ? 'ERROR' : 'WARN',
    module: moduleOf(message),
    message,
    context,
  };
}

export function createLogKeeper(deps: { clock: Clock; store: Pick<LogEntriesStore, 'add' | 'range'> }) {
  let waiting: NewLogEntry[] = [];
  let timer: Timer | undefined;
  const flush = () => {
    timer?.cancel();
    timer = undefined;
    if (waiting.length === 0) return;
    const batch = waiting;
    waiting = [];
    try {
      deps.store.add(batch);
    } catch {
      // dropped: see the header
    }
  };
  return {
    /** A line from the logger's tap; kept with the next batch when it is a warning or an error. */
    line(json: string): void {
      const entry = entryOf(json, deps.clock.now());
      if (!entry) return;
      waiting.push(entry);
      if (waiting.length >= 2 * LOGS_KEPT) waiting = waiting.slice(-LOGS_KEPT);
      timer ??= deps.clock.setTimer(flush, LOG_BATCH_MS);
    },
    /** Writes what waits now (a stop, a read). */
    flush,
    /** The kept entries from `from` to `to` (wall-clock ms, inclusive), the waiting ones written first. */
    range(from: number, to: number) {
      flush();
      return deps.store.range(from, to);
    },
  };
}

export type LogKeeper = ReturnType<typeof createLogKeeper>;
