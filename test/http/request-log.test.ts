// The request line (one per request, app.ts): its reqId, method, route, status, duration and
// caller, each request with its own reqId; never a header, a query string or a body.
import t from 'tap';
import { PassThrough } from 'node:stream';
import { createLogger } from '../../src/core/logging.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

t.test('every request line names its own reqId, method, route, status and caller, and nothing secret', async (t) => {
  const clock = fakeClock();
  const out = new PassThrough();
  const written: string[] = [];
  out.on('data', (d: Buffer) => written.push(d.toString()));
  const logger = createLogger('info', { pretty: false, destination: out, clock });
  const app = await testApp(t, { clock, logger });
  t.equal((await app.get('/health')).statusCode, 200);
  const wrongKey = {
    url: '/api/messages?secret=q',
    remoteAddress: '192.168.1.30',
    headers: { authorization: 'Bearer sk_wrong_key' },
  };
  t.equal((await app.app.inject(wrongKey)).statusCode, 401);
  t.equal((await app.queue({ to: ['+15550001111'], message: 'the body text' })).statusCode, 202);
  logger.flush();
  await Promise.resolve();
  const lines = written
    .join('')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => l.msg === 'request');
  t.match(lines, [
    { method: 'GET', route: '/health', status: 200, caller: '192.168.1.21' },
    { method: 'GET', route: '/api/messages', status: 401, caller: '192.168.1.30' },
    { method: 'POST', route: '/api/messages', status: 202 },
  ]);
  const ids = lines.map((l) => l.reqId);
  t.ok(
    ids.every((id) => typeof id === 'string' && id !== ''),
    'each line has its reqId',
  );
  t.equal(new Set(ids).size, 3, 'a different one per request');
  t.ok(
    lines.every((l) => typeof l.ms === 'number'),
    'and its duration',
  );
  const text = written.join('');
  for (const secret of ['sk_wrong_key', 'secret=q', 'the body text', app.key])
    t.notOk(text.includes(secret), `no ${secret.slice(0, 8)}... in the log`);
});
