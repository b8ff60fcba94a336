#!/usr/bin/env node
// Makes test/fixtures/homes/<version>/: a gateway home written by each released version's own
// code (0.1.0 to 0.4.0), through its real API in simulated mode, for the upgrade test
// (test/store/upgrade-homes.test.ts). How and why: test/fixtures/homes/README.md.
//
// Run it as root inside a network namespace of your own (each version listens on port 8080):
//   ip netns add fx && ip -n fx link set lo up
//   ip netns exec fx node scripts/make-home-fixtures.mjs [0.1.0 0.2.0 0.3.0 0.4.0]
//   ip netns del fx
// Each version is checked out with `git worktree add --detach` under $FIXTURE_WORK (default
// /tmp/sms-gateway-fixture-work) and installed with `npm ci` on the Node running this script.
// Nothing runs through a shell. Not run in CI.
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { api, BASE, expectStatus, run, simulateReceive, waitFor } from './home-fixture-calls.mjs';
import { FOUR_ENV, fourSteps, SENT_TAGS, QUEUED_TAGS } from './home-fixture-0-4.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'test/fixtures/homes');
const WORK = process.env.FIXTURE_WORK ?? '/tmp/sms-gateway-fixture-work';
/** A webhook target nobody listens on: its events stay pending in the outbox. */
const ENV_TARGET = 'http://127.0.0.1:9/fixture-env-target';
const API_TARGET = 'http://127.0.0.1:9/fixture-api-target';
const HOUR = 3_600_000;

/** The last commit of each released version before the next version's work began (README). */
const VERSIONS = {
  // better-sqlite3 12 (0.1.0's) aborts on Node 24.19+ (issue 10): run 0.1.0 on Node 22.
  '0.1.0': { commit: '377fbc7', queue: false, nodeBelow: 24 },
  '0.2.0': { commit: '7429981', queue: true },
  '0.3.0': { commit: 'ad6d9e1', queue: true },
  // 0.4's additions too: tags, keyword rules, the opt-out list (home-fixture-0-4.mjs).
  '0.4.0': { commit: 'c3464a8', queue: true, four: true },
};
/** Files of a home the fixture keeps; the rest (lock, pid, compile cache) is left out. */
const KEPT = ['gateway.db', 'api-key', 'webhook-secret', 'simulated-inbox.jsonl'];

/** The version's own code, checked out and installed once. */
function checkout(version) {
  const below = VERSIONS[version].nodeBelow;
  if (below && Number(process.versions.node.split('.')[0]) >= below)
    throw new Error(`${version} needs Node older than ${below} (this is ${process.version})`);
  const dir = join(WORK, version);
  if (!existsSync(dir)) {
    mkdirSync(WORK, { recursive: true });
    run('git', ['worktree', 'add', '--detach', dir, VERSIONS[version].commit], ROOT);
  }
  if (!existsSync(join(dir, 'node_modules'))) run('npm', ['ci', '--no-audit', '--no-fund'], dir);
  return dir;
}

function gatewayEnv(version, home, simulation) {
  const path = [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
  return {
    PATH: path,
    HOME: home,
    TZ: 'UTC',
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_MODE: 'simulated',
    SMS_GATEWAY_SIMULATION: simulation,
    SMS_GATEWAY_WEBHOOK_URLS: ENV_TARGET,
    SMS_GATEWAY_INBOX: 'true',
    SMS_GATEWAY_INBOX_POLL_SECONDS: '1',
    LOG_LEVEL: 'warn',
    ...(VERSIONS[version].four ? FOUR_ENV : {}),
  };
}

/** `sms-gateway start` of that version, answering /health; stop() ends it as Ctrl-C would. */
async function startGateway(dir, env) {
  const proc = spawn(process.execPath, [join(dir, 'bin/sms-gateway'), 'start'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout.on('data', (d) => (out += d));
  proc.stderr.on('data', (d) => (out += d));
  const exited = new Promise((res) => proc.on('exit', (code) => res(code)));
  for (let i = 0; ; i++) {
    if (proc.exitCode !== null) throw new Error(`the gateway exited: ${out}`);
    const up = await fetch(`${BASE}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (i > 300) throw new Error(`no /health: ${out}`);
    await sleep(100);
  }
  return {
    async stop() {
      proc.kill('SIGTERM');
      const code = await exited;
      if (code !== 0) throw new Error(`the gateway's stop exited ${code}: ${out}`);
    },
  };
}

/** Two synchronous sends, 1.1 s apart (the send path's spacing is 1 s); from 0.4.0 on the first has tags. */
async function sendTwo(key, made, label) {
  for (const n of [1, 2]) {
    const to = `+1555000100${n}`;
    const tags = VERSIONS[label].four && n === 1 ? { tags: SENT_TAGS } : {};
    const r = await api(key, 'POST', '/api/sms/send', { to, message: `${label} sent ${n}`, ...tags });
    if (r.status !== 200) throw new Error(`send: ${r.status} ${JSON.stringify(r.json)}`);
    made.sent.push({ id: r.json.messageId, to, message: `${label} sent ${n}`, ...tags });
    await sleep(1100);
  }
}

/** The first run (every hand-off succeeds): sent messages, the queue, the inbox, targets. */
async function firstRun(dir, home, version, made) {
  const env = gatewayEnv(version, home, 'success');
  const gw = await startGateway(dir, env);
  const key = readFileSync(join(home, 'api-key'), 'utf8').trim();
  await sendTwo(key, made, version);
  if (VERSIONS[version].queue) await queueAndReceive(dir, env, key, version, made);
  if (VERSIONS[version].four) await fourSteps(dir, env, key, version, made);
  await gw.stop();
}

async function queueAndReceive(dir, env, key, version, made) {
  await expectStatus(201, api(key, 'POST', '/api/webhooks', { url: API_TARGET }));
  made.sendAt = new Date(Date.now() + HOUR).toISOString();
  const to = ['+15550002001', '+15550002002'];
  const tags = VERSIONS[version].four ? { tags: QUEUED_TAGS } : {};
  const waiting = await expectStatus(
    202,
    api(key, 'POST', '/api/messages', { to, message: `${version} queued`, sendAt: made.sendAt, ...tags }),
  );
  made.queued = waiting.data.map((m) => ({ id: m.id, to: m.to, message: `${version} queued`, ...tags }));
  const doomed = await expectStatus(
    202,
    api(key, 'POST', '/api/messages', { to: '+15550003001', message: `${version} cancelled`, sendAt: made.sendAt }),
  );
  await expectStatus(200, api(key, 'DELETE', `/api/messages/${doomed.data[0].id}`));
  made.cancelled = [{ id: doomed.data[0].id, to: '+15550003001', message: `${version} cancelled` }];
  for (const n of [1, 2]) simulateReceive(dir, env, `+1555000400${n}`, `${version} received ${n}`);
  await waitFor('the inbox', async () => (await api(key, 'GET', '/api/inbox')).json.data.length === 2);
  made.received = (await api(key, 'GET', '/api/inbox')).json.data.map((m) => ({
    id: m.id,
    from: m.from,
    body: m.body,
  }));
}

/** The second run (every hand-off fails): failed messages. */
async function secondRun(dir, home, version, made) {
  const gw = await startGateway(dir, gatewayEnv(version, home, 'failure'));
  const key = readFileSync(join(home, 'api-key'), 'utf8').trim();
  const r = await api(key, 'POST', '/api/sms/send', { to: '+15550005001', message: `${version} failed` });
  if (r.status !== 502) throw new Error(`failed send: ${r.status}`);
  made.failed = [{ id: r.json.messageId, to: '+15550005001', message: `${version} failed` }];
  await gw.stop();
}

async function makeHome(version) {
  const dir = checkout(version);
  const home = mkdtempSync(join(tmpdir(), `home-${version}-`));
  const made = {
    version,
    commit: VERSIONS[version].commit,
    node: process.version,
    madeAt: new Date().toISOString(),
    sent: [],
    queued: [],
    cancelled: [],
    received: [],
    failed: [],
  };
  await firstRun(dir, home, version, made);
  await secondRun(dir, home, version, made);
  if (existsSync(join(home, 'gateway.db-wal'))) throw new Error('gateway.db-wal left behind by a clean stop');
  const out = join(OUT, version);
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const file of KEPT) if (existsSync(join(home, file))) copyFileSync(join(home, file), join(out, file));
  writeFileSync(join(out, 'made.json'), `${JSON.stringify(made, null, 2)}\n`);
  rmSync(home, { recursive: true, force: true });
  console.log(`made ${out}`);
}

const wanted = process.argv.slice(2).length > 0 ? process.argv.slice(2) : Object.keys(VERSIONS);
for (const version of wanted) {
  if (!(version in VERSIONS)) throw new Error(`unknown version ${version}: one of ${Object.keys(VERSIONS).join(', ')}`);
  await makeHome(version);
}
