// Upgrades through the real process (issue 38): `sms-gateway start` on a copy of each released
// version's home (test/fixtures/homes/) answers with that home's key, lists its history, its
// webhook targets with their pending events and (0.4.0) its opt-out list, rules and tags; it
// hands off each queued message once when due and leaves every settled message as it was
// (nothing sent again, not by a second start either); stopped, the same home marked
// with a schema newer than the code (what a downgrade meets) stops the start with one line
// saying what to do, exit 1, no stack, the database untouched.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/migrations.js';
import type { Made } from '../helpers/fixture-homes.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';

const CALLER = '127.0.0.41';
const ENV_TARGET = 'http://127.0.0.1:9/fixture-env-target';
const API_TARGET = 'http://127.0.0.1:9/fixture-api-target';
/** Each version's home and how many messages it holds (test/fixtures/homes/README.md). */
const VERSIONS = { '0.1.0': 3, '0.2.0': 6, '0.3.0': 6, '0.4.0': 7 } as const;

interface Listed {
  id: string;
  status: string;
  updatedAt: string;
  reason?: string | null;
}

async function getJson<T>(t: Test, key: string, path: string): Promise<T> {
  const res = await httpGet(path, { authorization: `Bearer ${key}` }, CALLER);
  t.equal(res.status, 200, `${path}: the home's own key is accepted`);
  return (JSON.parse(res.body) as { data: T }).data;
}

const messages = (t: Test, key: string) => getJson<Listed[]>(t, key, '/api/messages?limit=100');

/** The queued messages once due: each handed off (the one to an opted-out number failed), none waiting. */
async function queuedWhenDue(t: Test, key: string, made: Made): Promise<Listed[]> {
  const ids = [...made.queued, ...(made.blocked ?? [])].map((m) => m.id);
  if (ids.length === 0) return [];
  const due = Date.parse(made.sendAt!) <= Date.now();
  const settled = await waitFor(
    due ? 'the queued messages to go' : 'the list',
    async () => {
      const listed = (await messages(t, key)).filter((m) => ids.includes(m.id));
      return listed.length === ids.length && (!due || listed.every((m) => m.status !== 'queued')) ? listed : undefined;
    },
    30_000,
    300,
  );
  for (const m of settled) {
    const blocked = made.blocked?.some((b) => b.id === m.id) === true;
    const want = !due ? { status: 'queued' } : blocked ? { status: 'failed', reason: 'opted_out' } : { status: 'sent' };
    t.match(m, want, `${m.id}: ${JSON.stringify(want)} (sendAt ${due ? 'passed' : 'still ahead'})`);
  }
  return settled;
}

/** Pending deliveries per webhook target (env: SMS_GATEWAY_WEBHOOK_URLS, api: POST /api/webhooks), as left. */
function pendingInFixture(path: string): Map<string, number> {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT target, COUNT(*) AS n FROM webhook_deliveries GROUP BY target`).all() as {
      target: string;
      n: number;
    }[];
    const source = new Map([
      [ENV_TARGET, 'env'],
      [API_TARGET, 'api'],
    ]);
    return new Map(rows.map((r) => [source.get(r.target)!, r.n]));
  } finally {
    db.close();
  }
}

/** Every target is kept, none of its pending events lost (still pending, or expired once a day old). */
async function targetsKept(t: Test, key: string, version: string, pending: Map<string, number>): Promise<void> {
  type Target = { source: string; pending: number; expired: number };
  const targets = (
    await getJson<{ checks: { webhooks: { value: { targets: Target[] } } } }>(t, key, '/api/diagnostics')
  ).checks.webhooks.value.targets;
  t.same(targets.map((w) => w.source).sort(), version === '0.1.0' ? ['env'] : ['api', 'env'], 'every webhook target');
  t.ok(
    [...pending.values()].every((n) => n > 0),
    'the fixture has pending events for each target',
  );
  for (const w of targets)
    t.ok(
      w.pending + w.expired >= pending.get(w.source)!,
      `${w.source}: its ${pending.get(w.source)} pending events kept`,
    );
}

/** 0.4.0's own: the opt-out list, the rules and the tags, as 0.4.0 listed them. */
async function fourKept(t: Test, key: string, made: Made): Promise<void> {
  if (!made.optOuts) return;
  const optOuts = await getJson<{ number: string; by: string }[]>(t, key, '/api/opt-outs?limit=100');
  t.same(
    optOuts.map((o) => ({ number: o.number, by: o.by })),
    made.optOuts,
    'the opt-out list',
  );
  t.match(await getJson(t, key, '/api/rules'), made.rules, 'the keyword rules');
  for (const m of [...made.sent, ...made.queued].filter((x) => x.tags))
    t.same((await getJson<{ tags: object }>(t, key, `/api/messages/${m.id}`)).tags, m.tags, `${m.id}: its tags`);
}

/** The settled messages as the old version wrote them (read before today's code opens the home). */
function settledInFixture(path: string): Listed[] {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db.prepare(`SELECT id, status, updated_at AS at FROM messages WHERE status != 'queued'`).all() as {
      id: string;
      status: string;
      at: number;
    }[];
    return rows.map((r) => ({ id: r.id, status: r.status, updatedAt: new Date(r.at).toISOString() }));
  } finally {
    db.close();
  }
}

/** `sms-gateway start` that must not start: its exit code and everything it printed. */
function refusedStart(env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string; err: string }> {
  const proc = spawn(process.execPath, [CLI, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout.on('data', (d: Buffer) => (out += d.toString()));
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const timer = setTimeout(() => proc.kill('SIGKILL'), 30_000); // it started after all: fail, do not hang
  return new Promise((res) =>
    proc.on('exit', (code) => {
      clearTimeout(timer);
      res({ code, out, err });
    }),
  );
}

for (const [version, count] of Object.entries(VERSIONS)) {
  t.test(`a ${version} home: opened and kept by today's process; a newer schema is refused in one line`, async (t) => {
    await holdPort8080(t);
    const home = tempDir(t);
    cpSync(join(ROOT, 'test/fixtures/homes', version), home, { recursive: true });
    const key = readFileSync(join(home, 'api-key'), 'utf8').trim();
    const made = JSON.parse(readFileSync(join(home, 'made.json'), 'utf8')) as Made;
    const env = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      TZ: 'UTC',
      SMS_GATEWAY_HOME: home,
      SMS_GATEWAY_WEBHOOK_URLS: ENV_TARGET,
    };
    const settled = settledInFixture(join(home, 'gateway.db'));
    const pending = pendingInFixture(join(home, 'gateway.db'));
    const gw = await startGateway(t, env, CALLER);
    const before = await messages(t, key);
    t.equal(before.length, count, 'every message of the home');
    for (const m of settled)
      t.match(
        before.find((b) => b.id === m.id),
        m,
        `${m.id} (${m.status}) as the old version left it`,
      );
    await targetsKept(t, key, version, pending);
    await fourKept(t, key, made);
    const wentOut = await queuedWhenDue(t, key, made);
    gw.proc.kill('SIGTERM');
    t.equal(await gw.exited, 0, 'stopped cleanly');

    const again = await startGateway(t, env, CALLER);
    const after = await messages(t, key);
    for (const m of [...settled, ...wentOut])
      t.match(
        after.find((a) => a.id === m.id),
        m,
        `${m.id} (${m.status}) untouched by a second start`,
      );
    await fourKept(t, key, made);
    again.proc.kill('SIGTERM');
    t.equal(await again.exited, 0);

    const db = new Database(join(home, 'gateway.db'));
    db.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    db.close();
    const refused = await refusedStart(env);
    t.equal(refused.code, 1, 'exit 1');
    t.equal(refused.out, '', 'nothing on stdout');
    const lines = refused.err.split('\n').filter((l) => l !== '');
    t.equal(lines.length, 1, `one line: ${refused.err}`);
    t.match(lines[0], `newer than this gateway knows (${MIGRATIONS.length})`);
    t.match(lines[0], 'git pull && npm install', 'says what to do');
    t.match(lines[0], 'restore the backup');
    const after2 = new Database(join(home, 'gateway.db'), { readonly: true });
    t.equal(after2.pragma('user_version', { simple: true }), MIGRATIONS.length + 1, 'the database is left as it was');
    after2.close();
  });
}
