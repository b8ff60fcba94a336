// The Node receiver of docs/receiving.md, run as written (only its port changed to a free one): it
// verifies signed events from postSigned and prints one sensible line per event type.
import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { postSigned } from '../../src/events/post-signed.js';
import { makeEvent } from '../../src/store/event-record.js';
import { ROOT, tempDir } from '../helpers/paths.js';

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function readmeReceiver(): string {
  const page = readFileSync(join(ROOT, 'docs', 'receiving.md'), 'utf8');
  const m = /```js\n(\/\/ receiver\.mjs[\s\S]*?)```/.exec(page);
  if (!m) throw new Error('docs/receiving.md has no receiver.mjs block');
  return m[1]!;
}

t.test(
  'the Node receiver of docs/receiving.md prints a line for every event type, gateway.test included',
  async (t) => {
    const code = readmeReceiver();
    t.match(code, '.listen(9000)');
    const dir = tempDir(t);
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    writeFileSync(
      join(dir, 'receiver.mjs'),
      code.replace(
        '.listen(9000)',
        ".listen(0, '127.0.0.1', function () { console.log('PORT', this.address().port); })",
      ),
    );
    const proc = spawn(process.execPath, [join(dir, 'receiver.mjs')], {
      env: { ...process.env, WEBHOOK_SECRET: SECRET },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    t.teardown(() => proc.kill());
    let out = '';
    const port = await new Promise<number>((resolve, reject) => {
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /PORT (\d+)/.exec(out);
        if (m) resolve(Number(m[1]));
      });
      proc.on('exit', (c) => reject(new Error(`receiver exited ${c}`)));
    });
    const url = `http://127.0.0.1:${port}/`;
    const now = Date.now();
    const receivedAt = new Date(now).toISOString();
    const received = { smsId: 7, from: '+15550001111', body: 'hi there', receivedAt } as never;
    const failed = { id: 'msg_x', to: '+15550002222', status: 'failed', reason: 'timeout' } as never;
    const events = [
      makeEvent('gateway.test', { message: 'This is a test event from sms-gateway.', version: '0.2.0' }, now),
      // Only the fields the receiver reads: stand-ins for the whole data.
      makeEvent('sms.received', received, now),
      makeEvent('sms.failed', failed, now),
    ];
    for (const e of events) {
      const r = await postSigned(url, e.id, JSON.stringify(e), SECRET, now, 'test');
      t.equal(r.status, 204, `${e.type} delivered`);
    }
    const bad = await postSigned(
      url,
      'evt_x',
      JSON.stringify(events[0]),
      'whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
      now,
      'test',
    );
    t.equal(bad.status, 401, 'a wrong secret is refused');
    const printed = () => out.split('\n').filter((l) => l && !l.startsWith('PORT'));
    // The receiver prints before it answers, but the pipe may deliver after the answer: wait for the lines.
    await new Promise<void>((resolve) => {
      const check = () => (printed().length >= events.length || proc.exitCode !== null ? resolve() : undefined);
      proc.stdout.on('data', check);
      proc.on('exit', check);
      check();
    });
    const lines = printed();
    t.same(lines, [
      'test event from sms-gateway 0.2.0: This is a test event from sms-gateway.',
      'SMS from +15550001111: hi there',
      'sms.failed: msg_x to +15550002222 is failed (timeout)',
    ]);
    t.notMatch(out, /undefined/);
  },
);
