// Phase 4, the queue: how long POST /api/messages takes for 100 recipients (p50/p99), the
// gateway's CPU per queued message from acceptance to settled while a batch drains through
// an instant fake termux-sms-send at the fastest legal pace (SMS_GATEWAY_QUEUE_RATE=60, so
// 1 hand-off a second: the spacing and the 60-segment budget are fixed), against the floor
// (scripts/spawn-floor.ts: a bare Node with the launcher's flags doing only the hand-off and
// the two fsync'd commits each message needs, at the same pace), and the RSS with 10 000
// messages waiting (the lane reads one row at a time; none are held in memory).
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { systemClock } from '../../src/core/clock.js';
import { newMessageId } from '../../src/core/ids.js';
import { openDatabase } from '../../src/store/database.js';
import { createMessageStore } from '../../src/store/messages.js';
import { createStatsStore } from '../../src/store/stats.js';
import { QUEUE_LIMIT } from '../../src/store/queue.js';
import { fire, makeCallers, type Caller } from './load.js';
import { cpuTicks, log, percentile, round, rssOf } from './measure.js';
import {
  apiKey,
  launcherFlags,
  makeFake,
  newHome,
  pathWithoutTermux,
  startGateway,
  stopProc,
  waitForHealth,
} from './processes.js';
import { IDLE_SETTLE_MS, QUICK, SPAWN_FLOOR } from './settings.js';

const ACCEPT_SAMPLES = QUICK ? 3 : 20;
const RECIPIENTS = 100;
/** Messages drained for the CPU figure (BENCH_QUEUE_DRAIN; 500 takes about 8.5 minutes at 1/s). */
const DRAIN = Number(process.env.BENCH_QUEUE_DRAIN ?? (QUICK ? 20 : 500));
const FASTEST = { SMS_GATEWAY_QUEUE_RATE: '60' };
/** Messages the floor hands off (one a second). */
const FLOOR_COUNT = QUICK ? 20 : 60;

const recipients = (batch: number, n = RECIPIENTS) =>
  Array.from({ length: n }, (_, i) => `+1555${String(batch).padStart(3, '0')}${String(i).padStart(4, '0')}`);

function post(caller: Caller, auth: Record<string, string>, batch: number, n = RECIPIENTS) {
  return fire(8080, {
    kind: 'queue',
    caller,
    path: '/api/messages',
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      to: recipients(batch, n),
      message: `bench reminder ${batch}: the office is closed tomorrow.`,
    }),
    expect: 202,
  });
}

export async function queuePhase(tickHz: number) {
  // 1. Acceptance latency of 100-recipient requests (the queue drains meanwhile).
  log(`queue: ${ACCEPT_SAMPLES} requests of ${RECIPIENTS} recipients, 500 ms apart ...`);
  const fake = makeFake('queue');
  const home = newHome('queue-accept');
  const auth = { authorization: `Bearer ${apiKey(home)}` };
  const [caller] = makeCallers(['127.0.0.80']) as [Caller];
  const acceptMs: number[] = [];
  let gw = startGateway(home, fake, FASTEST);
  try {
    await waitForHealth(gw);
    for (let i = 0; i < ACCEPT_SAMPLES; i++) {
      const s = await post(caller, auth, i);
      if (s.status !== 202) throw new Error(`POST /api/messages answered ${s.status} ${s.error ?? ''}`);
      acceptMs.push(s.ms);
      await sleep(500);
    }
  } finally {
    await stopProc(gw);
  }

  // 2. CPU per message, acceptance to settled, draining DRAIN messages.
  log(`queue: draining ${DRAIN} messages at the fastest legal pace (1 a second, queue rate 60) ...`);
  const drainFake = makeFake('drain');
  const drainHome = newHome('queue-drain');
  const drainAuth = { authorization: `Bearer ${apiKey(drainHome)}` };
  gw = startGateway(drainHome, drainFake, FASTEST);
  let cpuMsPerMessage: number;
  let drainSeconds: number;
  try {
    await waitForHealth(gw);
    await sleep(2000);
    const ticks0 = cpuTicks(gw.pid);
    const t0 = performance.now();
    // Exactly DRAIN messages accepted (the last batch smaller), so each one's acceptance is counted once.
    for (let b = 0; b * RECIPIENTS < DRAIN; b++) {
      const s = await post(caller, drainAuth, 100 + b, Math.min(RECIPIENTS, DRAIN - b * RECIPIENTS));
      if (s.status !== 202) throw new Error(`POST /api/messages answered ${s.status}`);
    }
    while (drainFake.calls() < DRAIN) await sleep(500);
    await sleep(500); // the last settlement
    drainSeconds = round((performance.now() - t0) / 1000, 1);
    cpuMsPerMessage = round(((cpuTicks(gw.pid) - ticks0) * 1000) / tickHz / DRAIN, 3);
  } finally {
    await stopProc(gw);
  }
  caller.agent.destroy();
  const floorMsPerMessage = await spawnFloor();

  // 3. RSS with 10 000 messages waiting (scheduled 29 days ahead, so none leaves); not in quick mode.
  if (QUICK) return queueFigures(acceptMs, cpuMsPerMessage, floorMsPerMessage, drainSeconds, NaN);
  log(`queue: RSS with ${QUEUE_LIMIT} messages waiting ...`);
  const fullHome = newHome('queue-full');
  fillQueue(fullHome, QUEUE_LIMIT);
  gw = startGateway(fullHome);
  let rssMbAt10k: number;
  try {
    await waitForHealth(gw);
    await sleep(IDLE_SETTLE_MS);
    rssMbAt10k = rssOf(gw.pid).rssMb;
  } finally {
    await stopProc(gw);
  }
  return queueFigures(acceptMs, cpuMsPerMessage, floorMsPerMessage, drainSeconds, rssMbAt10k);
}

function queueFigures(
  acceptMs: number[],
  cpuMsPerMessage: number,
  floorMsPerMessage: number,
  drainSeconds: number,
  rssMbAt10k: number,
) {
  return {
    acceptP50Ms: round(percentile(acceptMs, 50)),
    acceptP99Ms: round(percentile(acceptMs, 99)),
    acceptSamples: acceptMs.length,
    cpuMsPerMessage,
    floorMsPerMessage,
    floorCount: FLOOR_COUNT,
    drained: DRAIN,
    drainSeconds,
    pacing: 'SMS_GATEWAY_QUEUE_RATE=60; spacing 1 s and the 60-segment window are fixed; instant fake termux-sms-send',
    rssMbAt10k,
  };
}

/** The floor's CPU per message (scripts/spawn-floor.ts through the same fake termux-sms-send). */
async function spawnFloor(): Promise<number> {
  log(
    `queue: the floor, ${FLOOR_COUNT} hand-offs and their two fsync'd commits in a bare Node with the launcher's flags ...`,
  );
  const fake = makeFake('floor');
  const dir = newHome('floor');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...launcherFlags(), SPAWN_FLOOR, join(fake.bin, 'termux-sms-send'), String(FLOOR_COUNT), dir],
    { env: { PATH: pathWithoutTermux(), FAKE_TERMUX_DIR: fake.state }, timeout: (FLOOR_COUNT * 2 + 30) * 1000 },
  );
  if (fake.calls() !== FLOOR_COUNT) throw new Error(`the floor handed off ${fake.calls()} of ${FLOOR_COUNT}`);
  return round((JSON.parse(stdout) as { cpuMsPerMessage: number }).cpuMsPerMessage, 3);
}

/** QUEUE_LIMIT waiting messages written straight into a fresh database, before the start. */
function fillQueue(home: string, count: number): void {
  const db = openDatabase(join(home, 'gateway.db'));
  try {
    const messages = createMessageStore(db, createStatsStore(db));
    const now = systemClock.now();
    const sendAt = now + 29 * 86_400_000;
    const rows = Array.from({ length: count }, (_, i) => ({
      id: newMessageId(now),
      to: `+1555${String(i).padStart(7, '0')}`,
      sendTo: `+1555${String(i).padStart(7, '0')}`,
      body: `waiting message ${i}: the pump in the cellar needs a look.`,
      segments: 1,
      encoding: 'gsm7' as const,
      simSlot: 1,
      sourceIp: '127.0.0.80',
      createdAt: now,
      statsDay: new Date(now).toISOString().slice(0, 10),
      idempotencyKey: null,
      requestHash: null,
      via: 'queue' as const,
      sendAt,
      expiresAt: null,
    }));
    for (let i = 0; i < rows.length; i += 1000) messages.insertBatch(rows.slice(i, i + 1000));
  } finally {
    db.close();
  }
}
