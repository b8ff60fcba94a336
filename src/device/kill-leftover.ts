// What is left of a hand-off after the gateway died: every device command runs in its own
// process group (src/device/termux.ts), which outlives a gateway killed with SIGKILL and may
// still send the SMS. A hand-off's group is described when it starts (its id, the boot it
// belongs to and its leader's start time) so the next start can kill what is left of it,
// and only that: never a group from another boot (pids are reused after a reboot), never a
// process that took the leader's pid since.
import { readFileSync } from 'node:fs';
import type { ProcessGroup } from '../core/ids.js';

export type { ProcessGroup };

export type LeftoverResult =
  | 'killed' // signalled what was left of the group
  | 'gone' // nothing of it runs any more
  | 'other_boot' // recorded in an earlier boot: its pid means nothing now
  | 'unknown' // the boot cannot be told (no boot id): left alone
  | 'reused'; // the pid now leads another process: left alone

const BOOT_ID = '/proc/sys/kernel/random/boot_id';

export function currentBootId(read: (path: string) => string = (p) => readFileSync(p, 'utf8')): string | null {
  try {
    const id = read(BOOT_ID).trim();
    return id === '' ? null : id;
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command, which may hold spaces). */
export function startTicksOf(
  pid: number,
  read: (path: string) => string = (p) => readFileSync(p, 'utf8'),
): number | null {
  try {
    const stat = read(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]); // field 22 overall; fields[0] is field 3
    return Number.isSafeInteger(ticks) ? ticks : null;
  } catch {
    return null;
  }
}

export function describeGroup(pid: number, bootId: string | null): ProcessGroup {
  return { pgid: pid, boot: bootId, startTicks: startTicksOf(pid) };
}

export interface KillDeps {
  bootId: string | null;
  startTicksOf?: (pid: number) => number | null;
  kill?: (pid: number, signal: NodeJS.Signals | 0) => void;
}

/**
 * Kills what is left of a recorded group, if it is provably the same group. Linux never
 * gives a new process a pid that is still some group's id, so while any member lives the
 * id is ours; once the leader's pid leads another process (a different start time) it is
 * not, and nothing is signalled.
 */
export function killLeftover(group: ProcessGroup, deps: KillDeps): LeftoverResult {
  const kill = deps.kill ?? ((pid, signal) => process.kill(pid, signal));
  const ticks = deps.startTicksOf ?? ((pid) => startTicksOf(pid));
  if (group.boot === null || deps.bootId === null) return 'unknown';
  if (group.boot !== deps.bootId) return 'other_boot';
  if (!Number.isSafeInteger(group.pgid) || group.pgid <= 1) return 'unknown';
  const leaderNow = ticks(group.pgid);
  if (leaderNow !== null && group.startTicks !== null && leaderNow !== group.startTicks) return 'reused';
  if (leaderNow !== null && group.startTicks === null) return 'unknown';
  try {
    kill(-group.pgid, 'SIGKILL');
    return 'killed';
  } catch {
    return 'gone'; // ESRCH: no member left
  }
}
