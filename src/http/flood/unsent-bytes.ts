// What the answers a caller does not read may hold. Once an answer is handed to its socket,
// the bytes the kernel has not taken (socket.writableLength) count against the connection
// (MAX_QUEUED_BYTES_PER_CONNECTION), its address (MAX_QUEUED_BYTES_PER_ADDRESS) and the whole
// (MAX_QUEUED_BYTES): past the first two the connection is closed, past the whole the largest
// connection of the address holding the most (found by a scan, only then). An answer whose
// unsent bytes have not gone down for WRITE_STALL_MS closes its connection (a timer only while
// such bytes wait). Node counts a chunk's bytes until all of it is written, so a reader slower
// than ~1.7 MB in 30 s (about 450 kbit/s) is cut; a phone on slow Wi-Fi (1 Mbit/s) is not.
// The socket calls are the owner's (answer-gate.ts), through `close`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Clock, Timer } from '../../core/clock.js';
import type { Entry } from './connection-table.js';

export type SlowReaderReason = 'write_stalled' | 'connection_bytes' | 'address_bytes' | 'total_bytes' | 'pipeline';

/** An answer whose unsent bytes do not go down for this long closes its connection. */
export const WRITE_STALL_MS = 30_000;
/** Unsent bytes one connection may hold: over twice the largest answer (~1.7 MB). */
export const MAX_QUEUED_BYTES_PER_CONNECTION = 4 * 1024 * 1024;
/** Unsent bytes all connections of one address may hold. */
export const MAX_QUEUED_BYTES_PER_ADDRESS = 8 * 1024 * 1024;
/** Unsent bytes all callers together may hold; past it the largest holder gives up its largest. */
export const MAX_QUEUED_BYTES = 24 * 1024 * 1024;
/** One connection's answers: the one being made or written, the requests waiting behind it. */
export interface Line {
  readonly socket: Socket;
  /** The caller's address, as the connection table groups it. */
  readonly holder: string;
  /** The URL of the request it waits with or is answered for (the answer pace weighs it). */
  asking: string | undefined;
  /** The connection table's entry for the connection (set by its owner). */
  entry: Entry | undefined;
  waiting: [IncomingMessage, ServerResponse][];
  answering: boolean;
  /** The socket's bytesWritten when the answer being made began. */
  before: number;
  /** Unsent bytes counted for it, and at the last look (the stall timer wants them lower each time). */
  queued: number;
  left: number;
  timer: Timer | undefined;
  paused: boolean;
  closed: boolean;
  /** This line's listeners for its answers' 'prefinish' and 'close' (made once per connection, not per request). */
  made: () => void;
  over: () => void;
}

/** The unsent bytes per connection, per address and in all; `overflow` closes what passes a bound. */
export function createQueuedBytes(overflow: (line: Line, reason: SlowReaderReason) => void) {
  const holders = new Map<string, { bytes: number; lines: Set<Line> }>();
  let total = 0;
  function count(line: Line, bytes: number): void {
    const delta = bytes - line.queued;
    if (delta === 0) return;
    let holder = holders.get(line.holder);
    if (!holder) holders.set(line.holder, (holder = { bytes: 0, lines: new Set() }));
    line.queued = bytes;
    holder.bytes += delta;
    total += delta;
    if (bytes > 0) holder.lines.add(line);
    else holder.lines.delete(line);
    if (holder.lines.size === 0) holders.delete(line.holder);
  }
  /** The largest connection of the address holding the most (a scan: only past the whole's bound). */
  function largest(): Line | undefined {
    let top: { bytes: number; lines: Set<Line> } | undefined;
    for (const h of holders.values()) if (!top || h.bytes > top.bytes) top = h;
    let pick: Line | undefined;
    for (const line of top?.lines ?? []) if (!pick || line.queued > pick.queued) pick = line;
    return pick;
  }
  return {
    /** A line's unsent bytes now; closes what passes a bound. */
    set(line: Line, bytes: number): void {
      count(line, bytes);
      if (line.queued > MAX_QUEUED_BYTES_PER_CONNECTION) return overflow(line, 'connection_bytes');
      if ((holders.get(line.holder)?.bytes ?? 0) > MAX_QUEUED_BYTES_PER_ADDRESS) return overflow(line, 'address_bytes');
      for (let victim = largest(); total > MAX_QUEUED_BYTES && victim; victim = largest()) {
        overflow(victim, 'total_bytes');
      }
    },
    /** Its bytes are gone (flushed, or the line closed). */
    clear: (line: Line) => count(line, 0),
    total: () => total,
  };
}

/** After an answer is handed to its socket: its unsent bytes count, and must keep going down (WRITE_STALL_MS). */
export function watchWrites(clock: Clock, bytes: QueuedBytes, close: (line: Line, reason: SlowReaderReason) => void) {
  function stalled(line: Line): void {
    line.timer = undefined;
    if (line.closed || !line.answering) return;
    const left = line.socket.writableLength;
    if (left >= line.left) return close(line, 'write_stalled');
    line.left = left;
    line.timer = clock.setTimer(() => stalled(line), WRITE_STALL_MS);
    bytes.set(line, left);
  }
  return function handedOver(line: Line): void {
    if (line.closed || !line.answering) return;
    line.left = line.socket.writableLength;
    if (line.left === 0) return;
    line.timer = clock.setTimer(() => stalled(line), WRITE_STALL_MS);
    bytes.set(line, line.left);
  };
}

export type QueuedBytes = ReturnType<typeof createQueuedBytes>;
