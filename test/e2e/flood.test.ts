// End to end: no set of local addresses can keep a new caller out (docs/design.md, "A fair share
// under a hostile LAN"). The real `sms-gateway start` (simulated mode) runs inside a
// network namespace of its own, where 127.0.0.0/8 and a few fd00::/64 addresses on `lo`
// are the callers; each flood shape runs as a client process (test/fixtures/flood-client.mjs)
// beside a witness process, a new address asking /health every 100 ms on a new connection.
// The witness starts once the flood has reached its shape (every socket it means to hold
// opened once, so the gateway has had to evict; churn: 5 000 addresses come and gone), and
// the test fails if the flood cannot get there in 45 s: on a busy machine a flood starved of
// CPU would otherwise be no flood at all (seen: 0 connections in 4 s while the other
// end-to-end files ran). The witness must get >= 99 % answers (each within 2 s; p50/p99
// printed; the contract's 1 s p99 is judged by `npm run bench`, which runs these shapes on a
// quiet machine). The gateway's RSS (VmRSS from /proc, every 100 ms) must stay within idle +
// MEMORY_BOUND_MB during each flood, idle being measured once before the first: the floods
// run one after another in one gateway, so each shape is judged with what the ones before it
// left (stricter than one gateway per shape, and faster). Every flood is bounded in time and
// in connection attempts. A shape whose witness was not served while this test's own timers
// stalled for 1 s or more (the machine starved by other test files, not the gateway by the
// flood) is run once more, and says so.
// Needs root and iproute2; skipped with the reason otherwise.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { holdPort8080 } from '../helpers/gateway-process.js';
import { ip, mustIp, namespacesUnavailable } from '../fixtures/ip.js';
import {
  MEMORY_BOUND_MB,
  READY_MS,
  readyAt,
  rssMb,
  runClient,
  runShape,
  SHAPES,
  V6_ATTACKER,
  V6_NEIGHBOURS,
  WITNESS_SERVED,
  type ClientLine,
} from '../fixtures/flood-shapes.js';

const NS = `smsgw-flood-${process.pid}`;
const FLOOD_MS = 3_000;
/** Every client runs inside the gateway's namespace. */
const IN_NS = ['ip', 'netns', 'exec', NS];
const client = (spec: ClientLine) => runClient(IN_NS, spec);

/** The namespace's count of connections dropped from a full accept queue (SYNs retried after 1 s). */
function listenOverflows(): number {
  const r = spawnSync('ip', ['netns', 'exec', NS, 'cat', '/proc/net/netstat'], { encoding: 'utf8' });
  const [names, values] = r.stdout.split('\n').filter((l) => l.startsWith('TcpExt:'));
  const i = names?.split(' ').indexOf('ListenOverflows') ?? -1;
  return i < 0 ? NaN : Number(values!.split(' ')[i]);
}

/** A stall of this process's own timers this long means the machine, not the flood, kept the witness waiting. */
const STARVED_MS = 1_000;

const witnessServed = (seen: ClientLine) => Number(seen.served) >= WITNESS_SERVED * Number(seen.total);

/** One shape, and the longest this process's event loop was held up meanwhile (ms). */
async function runStarvationAware(shape: (typeof SHAPES)[number], pid: number) {
  const delay = monitorEventLoopDelay({ resolution: 20 });
  delay.enable();
  try {
    const run = await runShape(IN_NS, shape, pid, FLOOD_MS, 2000);
    return { ...run, starvedMs: Math.round(delay.max / 1e6) };
  } finally {
    delay.disable();
  }
}

const unavailable = namespacesUnavailable(`${NS}-probe`);

t.test(
  'a new caller is served during every flood shape',
  { skip: unavailable ? `network namespaces unavailable: ${unavailable}` : false },
  async (t) => {
    await holdPort8080(t); // not for the port (the namespace has its own): for the CPU
    const cleanup = () => ip(['netns', 'del', NS]);
    cleanup();
    t.teardown(cleanup);
    mustIp(['netns', 'add', NS]);
    mustIp(['-n', NS, 'link', 'set', 'lo', 'up']);
    for (const a of [...V6_ATTACKER, ...V6_NEIGHBOURS])
      mustIp(['-n', NS, '-6', 'addr', 'add', `${a}/64`, 'dev', 'lo', 'nodad']);

    const home = tempDir(t);
    // The gateway as a user starts it: none of the test runner's loader options.
    const inherited = { ...process.env };
    delete inherited.NODE_OPTIONS;
    const env = {
      ...inherited,
      SMS_GATEWAY_HOME: home,
      SMS_GATEWAY_MODE: 'simulated',
      PATH: '/usr/local/bin:/usr/bin:/bin',
    };
    const proc = spawn('ip', ['netns', 'exec', NS, process.execPath, CLI, 'start'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    proc.stdout.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    proc.stderr.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
    t.teardown(async () => {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill('SIGKILL');
        await exited;
      }
    });
    for (let i = 0; ; i++) {
      const probe = await client({
        mode: 'witness',
        host: '127.0.0.1',
        addresses: ['127.0.0.2'],
        durationMs: 1,
        intervalMs: 1,
        timeoutMs: 1000,
      });
      if (probe.served === 1) break;
      if (i > 150 || proc.exitCode !== null) throw new Error(`the gateway did not answer /health: ${out}`);
      await sleep(100);
    }
    const pid = Number(readFileSync(join(home, 'gateway.pid'), 'utf8').trim());
    await sleep(1000);
    const idle = rssMb(pid);
    t.comment(`Node ${process.version}, idle RSS ${idle.toFixed(1)} MB`);

    for (const shape of SHAPES) {
      await t.test(shape.name, async (t) => {
        const overflowsBefore = listenOverflows();
        let run = await runStarvationAware(shape, pid);
        if (!witnessServed(run.seen) && run.starvedMs >= STARVED_MS) {
          // This test's own timers were late by as much as the witness's timeout: the whole
          // machine was starved (other test files on 2 cores), not the gateway by the flood.
          t.comment(
            `${shape.name}: the machine stalled ${run.starvedMs} ms during the witness; the shape is run again`,
          );
          run = await runStarvationAware(shape, pid);
        }
        const { ready, seen, flooded, peakMb: peak } = run;
        t.comment(
          `${shape.name}: witness ${seen.served}/${seen.total}, p50 ${seen.p50} ms, p99 ${seen.p99} ms, RSS idle ${idle.toFixed(1)} peak ${peak.toFixed(1)} MB; accept queue overflows ${listenOverflows() - overflowsBefore}; flood ${JSON.stringify(flooded)}`,
        );
        t.ok(
          ready,
          `the flood reached its shape (${readyAt(shape.flood)} ${shape.flood.mode === 'churn' ? 'addresses used' : 'connections made'}) within ${READY_MS / 1000} s`,
          flooded,
        );
        t.ok(Number(seen.total) >= 20, 'the witness asked', seen);
        t.ok(witnessServed(seen), `the witness was served ${seen.served}/${seen.total}`, {
          ...seen,
          starvedMs: run.starvedMs,
        });
        t.ok(
          peak <= idle + MEMORY_BOUND_MB,
          `RSS peak ${peak.toFixed(1)} MB within idle ${idle.toFixed(1)} + ${MEMORY_BOUND_MB} MB`,
        );
        // p99 under 1 s is the contract's figure, but a latency bound is a timing assertion that a
        // loaded 2-core CI machine breaks by chance: the test asserts being served (each answer
        // within the witness's 2 s timeout) and prints p50/p99; npm run bench judges the 1 s.
        await sleep(300); // the flood's sockets closed before the next shape
      });
    }

    proc.kill('SIGTERM');
    t.equal(await exited, 0);
  },
);
