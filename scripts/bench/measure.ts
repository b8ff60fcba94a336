// Numbers and process sampling: rounding, percentiles, CPU ticks and RSS of a process
// read from /proc (Linux), and the clock tick rate they are counted in.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

export const log = (line: string) => process.stdout.write(`${line}\n`);
export const round = (n: number, digits = 2) => {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
};
export const median = (xs: number[]) => percentile(xs, 50);

/** Nearest-rank percentile. */
export function percentile(xs: number[], p: number): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
  return sorted[Math.min(rank, sorted.length) - 1]!;
}

export function clockTicks(): { hz: number; source: string } {
  const r = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8', timeout: 5000 });
  const hz = Number.parseInt(r.stdout ?? '', 10);
  if (r.status === 0 && Number.isInteger(hz) && hz > 0) return { hz, source: 'getconf CLK_TCK' };
  return { hz: 100, source: 'assumed 100 (getconf CLK_TCK failed)' };
}

/** utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/<pid>/stat). */
export function cpuTicks(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

export interface Rss {
  rssMb: number;
  anonMb: number;
  fileMb: number;
  shmemMb: number;
}

/** VmRSS and its parts from /proc/<pid>/status (kB there, MB here). */
export function rssOf(pid: number): Rss {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name: string) => {
    const m = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    return m ? Number(m[1]) : NaN;
  };
  return {
    rssMb: round(kb('VmRSS') / 1024),
    anonMb: round(kb('RssAnon') / 1024),
    fileMb: round(kb('RssFile') / 1024),
    shmemMb: round(kb('RssShmem') / 1024),
  };
}

/**
 * Times the process's threads were scheduled onto a CPU (field 2 of
 * /proc/<pid>/task/<tid>/schedstat, summed over threads): each one is a wake-up.
 */
export function wakeups(pid: number): number {
  let sum = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      sum += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ')[2]);
    } catch {
      // the thread ended meanwhile
    }
  }
  return sum;
}

/** The process's command line (node, its flags, the script). */
export function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
}
