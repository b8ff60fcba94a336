// Ids: "<prefix>_" + 10 characters of time (ms, Crockford base32, so ids sort by
// creation time) + 16 random characters. Within one millisecond the random part counts
// up from the last id (as monotonic ULIDs do), so ids also sort in the order they were
// made: a 100-recipient request lists in the order given. Messages use msg_, events evt_.
// newNanoId: SMSGate's kind of id (nanoid's alphabet). Also ProcessGroup, what names a
// hand-off's process group across a restart.
import { randomBytes, randomInt } from 'node:crypto';

const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
export const MESSAGE_ID_PATTERN = /^msg_[0-9a-z]{26}$/;

let lastTime = '';
let lastRand: number[] = [];

/** The random part after `prev`, or fresh digits when it would overflow. */
function increment(prev: number[]): number[] | undefined {
  const next = [...prev];
  for (let i = next.length - 1; i >= 0; i--) {
    if (next[i]! < 31) {
      next[i]!++;
      return next;
    }
    next[i] = 0;
  }
  return undefined;
}

export function newId(prefix: string, nowMs: number): string {
  let time = '';
  let t = Math.max(0, Math.floor(nowMs));
  for (let i = 0; i < 10; i++) {
    time = ALPHABET[t % 32] + time;
    t = Math.floor(t / 32);
  }
  const counted = time === lastTime ? increment(lastRand) : undefined;
  const rand = counted ?? Array.from({ length: 16 }, () => randomInt(32));
  lastTime = time;
  lastRand = rand;
  return `${prefix}_${time}${rand.map((d) => ALPHABET[d]).join('')}`;
}

export const newMessageId = (nowMs: number) => newId('msg', nowMs);

const NANO_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-';

/** 21 random characters of nanoid's alphabet (126 bits), the ids SMSGate's clients know: its message and device ids. */
export function newNanoId(): string {
  return [...randomBytes(21)].map((b) => NANO_ALPHABET[b & 63]).join('');
}

/**
 * The shape that names a hand-off's process group across a restart: what the device room
 * describes when the command starts, the store keeps with the message, and the next start
 * uses to end what is left of it (src/device/kill-leftover.ts).
 */
export interface ProcessGroup {
  pgid: number;
  /** /proc/sys/kernel/random/boot_id, or null where it cannot be read. */
  boot: string | null;
  /** The leader's start time (clock ticks since boot, /proc/<pid>/stat field 22), or null. */
  startTicks: number | null;
}
