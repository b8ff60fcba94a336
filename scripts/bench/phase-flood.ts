// Phase 5, the connection flood: one loopback host opens connections as fast as it can for
// 10 s and keeps every one the gateway lets it keep (the attack of issue 13), while another
// caller asks /health 5 times a second. Measured: connections accepted, how many the
// flooding host still held at the end (the per-caller cap is 32), the gateway's RSS before,
// at most and 10 s after, and the other caller's answers and latency.
import { connect, type Socket } from 'node:net';
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { fire, type Caller, type Sample } from './load.js';
import { log, percentile, round, rssOf } from './measure.js';
import { newHome, startGateway, stopProc, waitForHealth } from './processes.js';
import { FLOOD_CALLER, FLOOD_IN_FLIGHT, FLOOD_MS, FLOOD_WITNESS, GATEWAY_PORT } from './settings.js';

/** The other caller opens a new connection for every request, as curl does: the flood must not keep it out. */
const witness: Caller = {
  address: FLOOD_WITNESS,
  agent: new http.Agent({ keepAlive: false, localAddress: FLOOD_WITNESS }),
};

export async function floodPhase() {
  log(
    `flood: ${FLOOD_CALLER} opens connections for ${FLOOD_MS / 1000} s (${FLOOD_IN_FLIGHT} at a time) and keeps them; ${FLOOD_WITNESS} asks /health 5 times a second ...`,
  );
  const gw = startGateway(newHome('flood'));
  try {
    await waitForHealth(gw);
    await sleep(2000);
    const rssBeforeMb = rssOf(gw.pid).rssMb;
    let rssMaxMb = rssBeforeMb;
    let connections = 0;
    let connectErrors = 0;
    const open = new Set<Socket>();
    const end = performance.now() + FLOOD_MS;
    const one = () => {
      if (performance.now() > end) return;
      const s = connect({ host: '127.0.0.1', port: GATEWAY_PORT, localAddress: FLOOD_CALLER }, () => {
        connections++;
        open.add(s);
      });
      s.on('error', () => connectErrors++);
      s.on('close', () => {
        open.delete(s);
        setImmediate(one);
      });
    };
    for (let i = 0; i < FLOOD_IN_FLIGHT; i++) one();
    const answers: Sample[] = [];
    const asking = (async () => {
      while (performance.now() < end) {
        answers.push(await fire(GATEWAY_PORT, { kind: 'health', caller: witness, path: '/health', expect: 200 }));
        await sleep(200);
      }
    })();
    while (performance.now() < end) {
      await sleep(500);
      rssMaxMb = Math.max(rssMaxMb, rssOf(gw.pid).rssMb);
    }
    await asking;
    await sleep(1000); // the last refusals reach this side
    const heldAtEnd = open.size;
    for (const s of open) s.destroy();
    await sleep(10_000);
    const ok = answers.filter((a) => a.status === 200).map((a) => a.ms);
    return {
      seconds: FLOOD_MS / 1000,
      connections,
      connectErrors,
      heldAtEnd,
      rssBeforeMb,
      rssMaxMb,
      rssAfterMb: rssOf(gw.pid).rssMb,
      witnessOk: ok.length,
      witnessFailed: answers.length - ok.length,
      witnessP50Ms: round(percentile(ok, 50)),
      witnessMaxMs: round(Math.max(0, ...ok)),
    };
  } finally {
    await stopProc(gw);
  }
}
