// A wall clock moved forward under the real gateway (issue 44, item 7): libfaketime, preloaded
// into the gateway's process, moves its wall clock 2 h ahead (its monotonic clock stays put,
// as a phone's does when network time corrects it) while a message waits for a sendAt 1 h
// away. Nothing asks the gateway anything until it has logged the jump (a request reading
// the time would notice it for the gateway): it must notice on its own, within the queue's
// 30 s step rather than the old 15 minutes, and then hand the message off.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';

const LIBS = ['x86_64', 'aarch64'].map((arch) => `/usr/lib/${arch}-linux-gnu/faketime/libfaketime.so.1`);
const LIBFAKETIME = LIBS.find((p) => existsSync(p));
const noFaketime = LIBFAKETIME ? false : 'libfaketime is not installed (apt-get install faketime; .ci/run installs it)';

/** Waits (polling `cond` every 250 ms, at most ms) and says whether it came true. */
async function within(ms: number, cond: () => boolean | Promise<boolean>): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(250)) if (await cond()) return true;
  return cond();
}

const title = 'the wall clock 2 h ahead with nobody asking: the jump is seen and a message due in 1 h goes';
t.test(title, { skip: noFaketime }, async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const offset = join(home, 'faketime');
  writeFileSync(offset, '+0\n');
  const base = { ...process.env, SMS_GATEWAY_HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin' };
  const env = {
    ...base,
    LD_PRELOAD: LIBFAKETIME!,
    FAKETIME_TIMESTAMP_FILE: offset,
    FAKETIME_CACHE_DURATION: '1',
    FAKETIME_DONT_FAKE_MONOTONIC: '1',
  };
  const caller = '127.0.0.72';
  const gw = await startGateway(t, env, caller);
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env: base, encoding: 'utf8' }).stdout.trim();
  const json = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const sendAt = new Date(Date.now() + 3_600_000).toISOString();
  const body = JSON.stringify({ to: '+15550007', message: 'later', sendAt });
  const res = await httpGet('/api/messages', json, caller, 'POST', body);
  t.equal(res.status, 202, res.body);
  const id = JSON.parse(res.body).data[0].id as string;
  writeFileSync(offset, '+2h\n'); // read by the gateway within libfaketime's 1 s cache
  // Only the output is read while it waits. 120 s: four of the queue's steps, far below the
  // old 15 minutes, so a loaded machine does not fail it and the old gateway does.
  const seen = await within(120_000, () => /the wall clock jumped/.test(gw.output()));
  t.ok(seen, 'the gateway saw the jump by itself and logged it');
  const status = async () => {
    const rec = await httpGet(`/api/messages/${id}`, json, caller);
    return JSON.parse(rec.body).data.status as string;
  };
  t.ok(await within(10_000, async () => (await status()) === 'sent'), 'and handed the message off');
});
