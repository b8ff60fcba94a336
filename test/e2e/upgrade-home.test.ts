// Upgrades through the real process (issue 38): `sms-gateway start` on a copy of each released
// version's home (test/fixtures/homes/) answers with that home's key, lists its history and
// leaves every settled message as it was (nothing sent again); stopped, the same home marked
// with a schema newer than the code (what a downgrade meets) stops the start with one line
// saying what to do, exit 1, no stack, the database untouched.
import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../src/store/migrations.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';

const CALLER = '127.0.0.41';
const VERSIONS = ['0.1.0', '0.2.0', '0.3.0'];

interface Listed {
  id: string;
  status: string;
  updatedAt: string;
}

async function messages(t: Test, key: string): Promise<Listed[]> {
  const res = await httpGet('/api/messages?limit=100', { authorization: `Bearer ${key}` }, CALLER);
  t.equal(res.status, 200, "the home's own key is accepted");
  return (JSON.parse(res.body) as { data: Listed[] }).data;
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

for (const version of VERSIONS) {
  t.test(`a ${version} home: opened and kept by today's process; a newer schema is refused in one line`, async (t) => {
    await holdPort8080(t);
    const home = tempDir(t);
    cpSync(join(ROOT, 'test/fixtures/homes', version), home, { recursive: true });
    const key = readFileSync(join(home, 'api-key'), 'utf8').trim();
    const env = {
      PATH: '/usr/local/bin:/usr/bin:/bin',
      TZ: 'UTC',
      SMS_GATEWAY_HOME: home,
      SMS_GATEWAY_WEBHOOK_URLS: 'http://127.0.0.1:9/fixture-env-target',
    };
    const settled = settledInFixture(join(home, 'gateway.db'));
    const gw = await startGateway(t, env, CALLER);
    const before = await messages(t, key);
    t.equal(before.length, version === '0.1.0' ? 3 : 6, 'every message of the home');
    for (const m of settled)
      t.match(
        before.find((b) => b.id === m.id),
        m,
        `${m.id} (${m.status}) as the old version left it`,
      );
    gw.proc.kill('SIGTERM');
    t.equal(await gw.exited, 0, 'stopped cleanly');

    const again = await startGateway(t, env, CALLER);
    const after = await messages(t, key);
    for (const m of settled)
      t.match(
        after.find((a) => a.id === m.id),
        m,
        `${m.id} (${m.status}) untouched by a second start`,
      );
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
