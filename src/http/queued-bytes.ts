// The bytes answers hold waiting for slow readers (http/slow-readers.ts), per connection, per
// caller address and in all, and which connection closes when a bound is passed: the one
// whose answer passed its own or its address's bound; past the whole's, the largest
// connection of the address holding the most (found by a scan, only then: at most a few
// hundred connections). While an address holds unsent bytes, its other connections' requests
// wait (mayAnswer), and go on (`proceed`) once they are gone: one stuck answer per address.
// Pure bookkeeping over the lines it is given: the socket calls are its owner's, in
// `overflow` and `proceed`.
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

export function createQueuedBytes(limits: QueuedBytesLimits, overflow: (line: Line, reason: SlowReaderReason) => void, proceed: (line: Line) => void) {
  const holders = new Map<string, { bytes: number; lines: Set<Line> }>();
  /** Lines with a request waiting until their address's unsent bytes are gone. */
  const held = new Map<string, Set<Line>>();
  let total = 0;

  /** The address holds nothing now: its waiting lines go on, one by one (the first may hold bytes again). */
  function release(address: string): void {
    const lines = held.get(address);
    if (!lines) return;
    held.delete(address);
    for (const line of lines) proceed(line);
  }

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
    if (holder.lines.size > 0) return;
    holders.delete(line.holder);
    release(line.holder);
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
      held.get(line.holder)?.delete(line);
      count(line, 0);
    },
    /**
     * True when no answer of the line's address is waiting for the kernel to take it: only
     * then is its next request answered (else it waits, and goes on when they are gone).
     */
    mayAnswer(line: Line): boolean {
      if (!holders.has(line.holder)) return true;
      let lines = held.get(line.holder);
      if (!lines) held.set(line.holder, (lines = new Set()));
      lines.add(line);
      return false;
    },
    total: () => total,
  };
}

export type QueuedBytes = ReturnType<typeof createQueuedBytes>;
