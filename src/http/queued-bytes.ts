// The bytes answers hold waiting for slow readers (http/slow-readers.ts), per connection, per
// caller address and in all, and which connection closes when a bound is passed: the one
// whose answer passed its own or its address's bound; past the whole's, the largest
// connection of the address holding the most (found by a scan, only then: at most a few
// hundred connections). Pure bookkeeping over the lines it is given: the socket calls are its
// owner's, in `overflow`.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Timer } from '../core/clock.js';

export type SlowReaderReason = 'write_stalled' | 'connection_bytes' | 'address_bytes' | 'total_bytes' | 'pipeline';

/** One connection's answers: the one being written, the pipelined requests waiting behind it. */
export interface Line {
  readonly socket: Socket;
  /** The caller's address, as the connection table groups it. */
  readonly holder: string;
  waiting: [IncomingMessage, ServerResponse][];
  answering: boolean;
  /** Bytes counted for it (the socket's writableLength when last looked at). */
  queued: number;
  /** The unsent bytes at the last look: the stall timer wants them lower each time. */
  left: number;
  timer?: Timer | undefined;
  /** Reading stopped by the gate (requests wait). */
  paused: boolean;
  closed: boolean;
}

export interface QueuedBytesLimits {
  connection: number;
  address: number;
  total: number;
}

export function createQueuedBytes(limits: QueuedBytesLimits, overflow: (line: Line, reason: SlowReaderReason) => void) {
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

  /** The largest connection of the address holding the most. */
  function largest(): Line | undefined {
    let top: { bytes: number; lines: Set<Line> } | undefined;
    for (const h of holders.values()) if (!top || h.bytes > top.bytes) top = h;
    let pick: Line | undefined;
    for (const line of top?.lines ?? []) if (!pick || line.queued > pick.queued) pick = line;
    return pick;
  }

  return {
    /** A line's bytes now; closes (through overflow) what passes a bound. */
    set(line: Line, bytes: number): void {
      count(line, bytes);
      if (line.queued > limits.connection) return overflow(line, 'connection_bytes');
      if ((holders.get(line.holder)?.bytes ?? 0) > limits.address) return overflow(line, 'address_bytes');
      for (let victim = largest(); total > limits.total && victim; victim = largest()) overflow(victim, 'total_bytes');
    },
    /** A line closed: its bytes no longer count. */
    leave(line: Line): void {
      count(line, 0);
    },
    total: () => total,
  };
}

export type QueuedBytes = ReturnType<typeof createQueuedBytes>;
