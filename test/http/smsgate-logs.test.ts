// SMSGate's GET /logs on the composed gateway: the warnings and errors its logger wrote
// (redaction done), kept in the database across a restart, the newest 1000, oldest first,
// within from and to; info lines are not kept.
import { Writable } from 'node:stream';
import t from 'tap';
import { createLogger } from '../../src/core/logging.js';
import { LOG_BATCH_MS } from '../../src/status/log-keeper.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
type Entry = { id: number; priority: string; module: string; message: string; context: unknown; createdAt: string };

/** The gateway's logger as the start command makes it, writing nowhere. */
const quietLogger = () =>
  createLogger('info', {
    pretty: false,
    destination: new Writable({ write: (_chunk, _enc, cb) => cb() }),
  });

async function loggingApp(t: Parameters<typeof testApp>[0], home: string, clock = fakeClock()) {
  const logger = quietLogger();
  const app = await testApp(t, { home, clock, logger });
  const logs = async (query = '') => {
    const res = await app.app.inject({
      url: `/logs${query}`,
      remoteAddress: '192.168.1.80',
      headers: { authorization: basic('sms', app.key) },
    });
    return res;
  };
  return { ...app, logger, logs };
}

t.test('warnings and errors are kept in SMSGate shape; info is not; fields redacted as logged', async (t) => {
  const app = await loggingApp(t, tempDir(t));
  // The gateway's own warning: the wall clock jumps a day ahead.
  app.clock.set(app.clock.now() + 86_400_000);
  const jumpedAt = app.clock.now();
  await app.get('/api/messages'); // a request reads the clock: the jump is seen and logged
  app.logger.info({ id: 'msg_1' }, 'an info line');
  app.logger.error({ err: new Error('disk gone'), key: 'sk_local_secret' }, 'webhook delivery loop failed');
  await app.clock.tick(LOG_BATCH_MS);
  const res = await app.logs();
  t.equal(res.statusCode, 200);
  const entries = res.json() as Entry[];
  t.equal(entries.length, 2);
  t.match(entries[0], {
    id: Number,
    priority: 'WARN',
    module: 'gateway',
    message: 'the wall clock jumped: every schedule is looked at again',
    context: { deltaMs: 86_400_000 },
    createdAt: new Date(jumpedAt).toISOString(),
  });
  t.match(entries[1], {
    priority: 'ERROR',
    module: 'webhooks',
    message: 'webhook delivery loop failed',
    context: { err: { type: 'Error', message: 'disk gone' }, key: '[redacted]' },
  });
  t.notMatch(res.body, /sk_local_secret|"stack"/, 'no secret, no stack');
  t.ok(entries[0]!.id < entries[1]!.id, 'oldest first');
});

t.test('kept across a restart (the same home opened again) and trimmed to the newest 1000', async (t) => {
  const home = tempDir(t);
  const first = await loggingApp(t, home);
  for (let i = 0; i < 600; i++) first.logger.warn({ i }, `first run warning ${i}`);
  // Batched: nothing written per line; another gateway on the same database sees none yet.
  const peek = await loggingApp(t, home);
  t.same((await peek.logs()).json(), [], 'the lines wait for their batch');
  await first.gateway.stopBackground(); // a stop writes what waits
  t.equal((await peek.logs()).json().length, 600, 'one batch written at the stop');
  const second = await loggingApp(t, home, fakeClock(first.clock.now() + 60_000));
  const kept = (await second.logs()).json() as Entry[];
  t.equal(kept.length, 600, 'the first run’s warnings, after the restart');
  t.equal(kept[0]!.message, 'first run warning 0');
  // A flood: 900 more, one batch.
  for (let i = 0; i < 900; i++) second.logger.warn({ i }, `second run warning ${i}`);
  await second.clock.tick(LOG_BATCH_MS);
  const trimmed = (await second.logs()).json() as Entry[];
  t.equal(trimmed.length, 1000, 'the newest 1000');
  t.equal(trimmed[0]!.message, 'first run warning 500');
  t.equal(trimmed.at(-1)!.message, 'second run warning 899');
  const from = encodeURIComponent(new Date(second.clock.now() - 1000).toISOString());
  t.equal((await second.logs(`?from=${from}`)).json().length, 900, 'from: the second run’s only');
  const to = encodeURIComponent(new Date(first.clock.now()).toISOString());
  t.equal((await second.logs(`?to=${to}`)).json().length, 100, 'to: the first run’s only (inclusive)');
});

t.test('bad from or to is 400 { message }; no credential is 401', async (t) => {
  const app = await loggingApp(t, tempDir(t));
  for (const query of [
    '?from=yesterday',
    '?to=2026-02-30T00:00:00',
    '?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z',
  ]) {
    const res = await app.logs(query);
    t.equal(res.statusCode, 400, query);
    t.match(res.json(), { message: String });
  }
  const refused = await app.app.inject({ url: '/logs', remoteAddress: '192.168.1.80' });
  t.equal(refused.statusCode, 401);
  t.match(refused.json(), { message: /Basic/ });
});
