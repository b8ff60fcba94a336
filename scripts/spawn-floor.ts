// The floor for the queue's CPU per message, used by scripts/bench.ts: a bare Node process
// (started with the launcher's V8 flags) that does, once a second, only what every message
// must: the hand-off through the gateway's own runCommand (stdin from an unlinked file,
// stdout and stderr piped, its own process group) and the two fsync'd commits (the hand-off
// start before it, the settlement after; SQLite in WAL with synchronous=FULL, as the
// gateway's database). No HTTP, no queue, no logging. Prints {"cpuMsPerMessage": n} once done.
// Usage: node <flags> dist-scripts/spawn-floor.js <termux-sms-send> <count> <work dir>
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { runCommand } from '../src/device/termux.js';
import { openDatabase } from '../src/store/database.js';

const [command, countText, dir] = process.argv.slice(2);
if (!command || !countText || !dir) throw new Error('usage: spawn-floor.js <termux-sms-send> <count> <work dir>');
const count = Number(countText);
const db = openDatabase(join(dir, 'floor.db'));
db.exec('CREATE TABLE IF NOT EXISTS floor (id INTEGER PRIMARY KEY, started_at INTEGER, settled_at INTEGER)');
db.exec('DELETE FROM floor');
const insert = db.prepare('INSERT INTO floor (id) VALUES (?)');
const start = db.prepare('UPDATE floor SET started_at = ? WHERE id = ?');
const settle = db.prepare('UPDATE floor SET settled_at = ? WHERE id = ?');
for (let i = 0; i < count; i++) insert.run(i);

async function oneMessage(i: number): Promise<void> {
  start.run(Date.now(), i);
  const r = await runCommand(command!, ['-n', `+1555200${String(i).padStart(4, '0')}`], {
    timeoutMs: 30_000,
    expect: 'none',
    input: `floor message ${i}: the office is closed tomorrow.`,
  });
  if (!r.ok) throw new Error(`the hand-off failed: ${r.failure} ${r.detail}`);
  settle.run(Date.now(), i);
}

await sleep(1000); // past the start's own work
const before = process.cpuUsage();
for (let i = 0; i < count; i++) {
  await oneMessage(i);
  await sleep(1000);
}
const used = process.cpuUsage(before);
db.close();
process.stdout.write(`${JSON.stringify({ cpuMsPerMessage: (used.user + used.system) / 1000 / count })}\n`);
