// A sendAt at the contract's limit in the real process (issue 34, case 2): 29 days ahead
// is more than one setTimeout takes (2^31-1 ms, about 24.86 days). Node would replace the
// delay with 1 ms: a spinning queue and a TimeoutOverflowWarning every millisecond. The
// gateway must stay quiet and the message queued. No duration is asserted: the output is.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';

t.test('a sendAt 29 days ahead: no TimeoutOverflowWarning, still queued', async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const env = { ...process.env, SMS_GATEWAY_HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin' };
  const caller = '127.0.0.71';
  const gw = await startGateway(t, env, caller);
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
  const json = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const sendAt = new Date(Date.now() + 29 * 86_400_000).toISOString();
  const res = await httpGet(
    '/api/messages',
    json,
    caller,
    'POST',
    JSON.stringify({ to: '+15550007', message: 'later', sendAt }),
  );
  t.equal(res.status, 202);
  const id = JSON.parse(res.body).data[0].id as string;
  await sleep(1000); // the overflowed timer would have fired about a thousand times
  t.notMatch(gw.output(), /TimeoutOverflowWarning/, 'no timer overflow');
  const rec = JSON.parse((await httpGet(`/api/messages/${id}`, json, caller)).body).data;
  t.match(rec, { status: 'queued', sendAt }, 'still waiting for its sendAt');
});
