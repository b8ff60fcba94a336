// Storage errors are 503 storage_unavailable on every route that writes (send, queue,
// cancel, webhook targets, opt-outs and keyword rules add and remove), never 500, and reads
// keep working: with the
// database file deleted while the gateway runs, with the database refusing writes
// (SQLITE_READONLY, as a read-only file gives), and on a real full filesystem (a small
// tmpfs filled to ENOSPC; needs root to mount, skipped otherwise).
import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testApp } from '../helpers/test-app.js';

type App = Awaited<ReturnType<typeof testApp>>;

const TO = '+15550001111';
const STORAGE =
  /^The gateway cannot write its database \(disk full, read-only, or deleted\?\); nothing was (sent|queued|changed)\./;

function call(a: App, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
  a.clock.advance(1000); // past the send spacing and under the per-caller rate limit
  return a.app.inject({
    method,
    url,
    remoteAddress: '192.168.1.40',
    headers: { ...a.auth, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
  });
}

/** A queued message to cancel and a target to remove, made while the disk is fine. */
async function before(t: Test, a: App) {
  const sendAt = new Date(a.clock.now() + 3600_000).toISOString();
  const queued = await call(a, 'POST', '/api/messages', { to: TO, message: 'later', sendAt });
  t.equal(queued.statusCode, 202);
  const target = await call(a, 'POST', '/api/webhooks', { url: 'https://hooks.example.net/a' });
  t.equal(target.statusCode, 201);
  t.equal((await call(a, 'POST', '/api/opt-outs', { number: '+15550002222' })).statusCode, 201);
  const rule = await call(a, 'POST', '/api/rules', { keyword: 'STATUS', reply: 'all quiet' });
  t.equal(rule.statusCode, 201);
  return {
    messageId: queued.json().data[0].id as string,
    targetId: target.json().data.id as string,
    ruleId: rule.json().data.id as string,
  };
}

/** Every writing route answers 503 storage_unavailable; nothing changed; reads answer 200. */
async function everyWriteRefused(t: Test, a: App, ids: { messageId: string; targetId: string; ruleId: string }) {
  const handedBefore = a.handoffs.length;
  const writes: [string, 'POST' | 'DELETE', string, unknown?][] = [
    ['send', 'POST', '/api/sms/send', { to: TO, message: `now ${'x'.repeat(1500)}` }],
    ['queue', 'POST', '/api/messages', { to: TO, message: `queue ${'x'.repeat(1500)}` }],
    ['cancel', 'DELETE', `/api/messages/${ids.messageId}`],
    ['add a webhook target', 'POST', '/api/webhooks', { url: `https://hooks.example.net/${'b'.repeat(1500)}` }],
    ['remove a webhook target', 'DELETE', `/api/webhooks/${ids.targetId}`],
    ['add an opt-out', 'POST', '/api/opt-outs', { number: '+15550003333' }],
    ['remove an opt-out', 'DELETE', '/api/opt-outs/%2B15550002222'],
    ['add a rule', 'POST', '/api/rules', { keyword: 'HELLO', reply: 'hi' }],
    ['remove a rule', 'DELETE', `/api/rules/${ids.ruleId}`],
  ];
  for (const [name, method, url, payload] of writes) {
    const res = await call(a, method, url, payload);
    t.equal(res.statusCode, 503, `${name}: 503`);
    t.match(
      res.body ? res.json() : null,
      { success: false, smsSent: false, error: { code: 'storage_unavailable', message: STORAGE } },
      `${name}: storage_unavailable`,
    );
  }
  t.equal(a.handoffs.length, handedBefore, 'nothing handed off');
  const messages = await call(a, 'GET', '/api/messages');
  t.equal(messages.statusCode, 200, 'reads keep working: the history');
  t.match(messages.json().data, [{ id: ids.messageId, status: 'queued' }], 'the queued message is still queued');
  const targets = await call(a, 'GET', '/api/webhooks');
  t.equal(targets.statusCode, 200, 'reads keep working: the targets');
  t.same(
    targets.json().data.map((w: { id: string }) => w.id),
    [ids.targetId],
    'the target is still there, none added',
  );
  t.equal((await call(a, 'GET', '/api/stats')).statusCode, 200, 'reads keep working: the stats');
}

t.test('the database file deleted while running', async (t) => {
  const a = await testApp(t);
  const ids = await before(t, a);
  rmSync(join(a.home, 'gateway.db'));
  await everyWriteRefused(t, a, ids);
});

t.test('the database refuses writes (SQLITE_READONLY)', async (t) => {
  const a = await testApp(t);
  const ids = await before(t, a);
  a.db.pragma('query_only = ON');
  await everyWriteRefused(t, a, ids);
  a.db.pragma('query_only = OFF');
  t.equal(
    (await call(a, 'DELETE', `/api/messages/${ids.messageId}`)).statusCode,
    200,
    'writable again: the cancel goes through',
  );
  t.equal((await call(a, 'DELETE', `/api/webhooks/${ids.targetId}`)).statusCode, 204, 'and the removal');
});

/** A fresh tmpfs of `mb` MB (unmounted lazily at teardown); throws without the rights. */
function smallFilesystem(t: Test, mb: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'smsgw-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${mb}m,mode=0700`, 'tmpfs', dir], { stdio: 'ignore' });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  t.teardown(() => {
    execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return dir;
}

/** Writes a filler file until the filesystem answers ENOSPC. */
function fill(dir: string) {
  const fd = openSync(join(dir, 'filler'), 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  try {
    for (;;) writeSync(fd, chunk, 0, 1); // the last partial page too
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
  }
  closeSync(fd);
}

const noMount = process.getuid?.() === 0 ? false : 'mounting a tmpfs needs root';

t.test('a full filesystem (a small tmpfs filled to ENOSPC)', { skip: noMount }, async (t) => {
  const dir = smallFilesystem(t, 4);
  const a = await testApp(t, { home: dir });
  const ids = await before(t, a);
  a.db.pragma('wal_checkpoint(TRUNCATE)'); // the next write needs new blocks, none reused
  fill(dir);
  await everyWriteRefused(t, a, ids);
  rmSync(join(dir, 'filler'));
  t.equal(
    (await call(a, 'DELETE', `/api/webhooks/${ids.targetId}`)).statusCode,
    204,
    'space again: the removal goes through',
  );
  t.equal((await call(a, 'POST', '/api/sms/send', { to: TO, message: 'after' })).statusCode, 200, 'and a send');
});
