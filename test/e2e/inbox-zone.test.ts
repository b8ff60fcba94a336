// The first seconds of a real gateway on a phone in Asia/Tokyo with TZ unset (issue 34,
// case 3): the inbox's first poll must not read the phone's local times before the device
// probes (getprop) told the zone. The real process in real mode, a fake phone on PATH, its
// inbox the fake termux-sms-list's store (paged by date as Termux:API does): 30 messages of
// the last 8 hours are never announced; one arriving afterwards is, once.
import t from 'tap';
import { spawnSync } from 'node:child_process';
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { GETPROP, PHONE_COMMANDS, healthyPhone } from '../fixtures/phone.js';

/** Polls 150 ms apart: the gateway answers about 10 requests a second per caller. */
const POLL_MS = 150;
/** Tokyo's local time as the phone prints it (no summer time there). */
const tokyo = (ms: number) => new Date(ms + 9 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);

t.test('a phone in Asia/Tokyo, TZ unset: the first inbox poll announces none of the last 8 hours', async (t) => {
  await holdPort8080(t);
  const fake = fakeTermux(t, PHONE_COMMANDS);
  healthyPhone(fake);
  fake.output('getprop', GETPROP.replace('Pacific/Auckland', 'Asia/Tokyo'));
  fake.mode('termux-sms-list', 'inbox');
  const lines: string[] = [];
  const arrive = (...sms: { at: number; body: string }[]) => {
    lines.push(...sms.map((s) => `+819012345678\t${tokyo(s.at)}\t${s.body}\n`));
    writeFileSync(join(fake.state, 'inbox.tmp'), lines.join(''));
    renameSync(join(fake.state, 'inbox.tmp'), join(fake.state, 'inbox'));
  };
  const start = Date.now();
  arrive(...Array.from({ length: 30 }, (_, i) => ({ at: start - 8 * 3_600_000 + i * 960_000, body: `old ${i}` })));

  const env: NodeJS.ProcessEnv = {
    ...fake.env,
    SMS_GATEWAY_HOME: tempDir(t),
    SMS_GATEWAY_INBOX: 'true',
    SMS_GATEWAY_INBOX_POLL_SECONDS: '1',
  };
  delete env.TZ;
  const caller = '127.0.0.71';
  const gw = await startGateway(t, env, caller);
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
  const auth = { authorization: `Bearer ${key}` };
  const inboxCheck = async () =>
    JSON.parse((await httpGet('/api/diagnostics', auth, caller)).body).data.checks.webhooks.value.inbox;
  const bodies = async () =>
    JSON.parse((await httpGet('/api/inbox?limit=100', auth, caller)).body).data.map(
      (m: { body: string }) => m.body,
    ) as string[];
  const polls = () => fake.calls('termux-sms-list').length;

  await waitFor('the first inbox poll', async () => ((await inboxCheck())?.lastOk ? true : undefined), 30_000, POLL_MS);
  const after = polls();
  await waitFor(
    'another inbox poll',
    async () => (polls() > after && (await inboxCheck()).lastOk ? true : undefined),
    30_000,
    POLL_MS,
  );
  t.same(await bodies(), [], 'none of the 30 is in /api/inbox');
  t.equal((await inboxCheck()).received, 0, 'none announced');
  const stats = JSON.parse((await httpGet('/api/stats', auth, caller)).body).data;
  t.equal(stats.timeZone, 'Asia/Tokyo', "the phone's zone, from getprop");

  arrive({ at: Date.now(), body: 'after the start' });
  await waitFor(
    'the new message',
    async () => ((await inboxCheck()).received >= 1 ? true : undefined),
    30_000,
    POLL_MS,
  );
  t.same(await bodies(), ['after the start'], 'the new one is, once');

  gw.proc.kill('SIGTERM');
  t.equal(await gw.exited, 0);
});
