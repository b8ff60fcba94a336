// 20 starts of the real gateway on one home, each answering /health and exiting 0 on
// SIGTERM: the loop that caught better-sqlite3 12 aborting at start on Node 24.19+ (6 in 10).
import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { tempDir } from '../helpers/paths.js';
import { acquireLock } from '../../src/core/lock.js';

const STARTS = 20;

t.test(`${STARTS} starts and stops of the real process`, async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const env = { ...process.env, SMS_GATEWAY_HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin' };
  const exits: (number | null)[] = [];
  for (let i = 0; i < STARTS; i++) {
    const gw = await startGateway(t, env, '127.0.0.40');
    const res = await httpGet('/health', {}, '127.0.0.40');
    t.equal(res.status, 200, `start ${i + 1}: /health`);
    gw.proc.kill('SIGTERM');
    const code = await gw.exited;
    exits.push(code);
    if (code !== 0) t.fail(`start ${i + 1} exited ${code}: ${gw.output().slice(-2000)}`);
  }
  t.same(exits, Array(STARTS).fill(0), 'every stop exited 0 (an abort is 134, or null with a signal)');
  t.equal(existsSync(join(home, 'gateway.pid')), false, 'the pid file is gone');
  acquireLock(home)(); // and the lock is free: taken and released at once
});
