// The logger's batched destination: a line after a quiet second is written at once, a
// burst waits at most a second (no timer while nothing waits), 4 KB are written at once,
// flush() writes what waits; and the JSON logger still writes one line per call.
import t from 'tap';
import { PassThrough } from 'node:stream';
import { pino } from 'pino';
import {
  BATCH_BYTES,
  BATCH_MS,
  batchedDestination,
  createLogger,
  isRequestLine,
  requestLineWriter,
} from '../../src/core/logging.js';
import { fakeClock } from '../helpers/fake-clock.js';

function sink() {
  const out = new PassThrough();
  const writes: string[] = [];
  out.on('data', (d: Buffer) => writes.push(d.toString()));
  return { out, writes };
}

t.test('a line after a quiet second is written at once, a burst within the second waits', async (t) => {
  const clock = fakeClock();
  const { out, writes } = sink();
  const dest = batchedDestination(out, clock, () => true);
  t.equal(clock.pendingTimers(), 0, 'no timer before any line');
  dest.write('one\n');
  await Promise.resolve();
  t.same(writes, ['one\n'], 'the first line is written at once');
  t.equal(clock.pendingTimers(), 0, 'and nothing waits: no timer');
  clock.advance(100);
  dest.write('two\n');
  dest.write('three\n');
  await Promise.resolve();
  t.same(writes, ['one\n'], 'a burst waits');
  t.equal(clock.pendingTimers(), 1, 'one timer while lines wait');
  clock.advance(BATCH_MS - 101);
  await Promise.resolve();
  t.same(writes, ['one\n'], 'not before a second since the last write');
  clock.advance(1);
  await Promise.resolve();
  t.same(writes, ['one\n', 'two\nthree\n'], 'one write for the burst, a second after the last write');
  t.equal(clock.pendingTimers(), 0, 'no timer once nothing waits (idle)');
  clock.advance(BATCH_MS + 1);
  dest.write('four\n');
  await Promise.resolve();
  t.same(writes.at(-1), 'four\n', 'after a quiet second: at once again');
});

t.test('4 KB gathered are written at once; flush() writes what waits', async (t) => {
  const clock = fakeClock();
  const { out, writes } = sink();
  const dest = batchedDestination(out, clock, () => true);
  dest.write('first\n');
  const line = `${'x'.repeat(99)}\n`;
  for (let i = 0; i < BATCH_BYTES / line.length + 1; i++) dest.write(line);
  await Promise.resolve();
  t.equal(writes.length, 2, 'the 4 KB batch went out without waiting');
  dest.write('last\n');
  let called = false;
  dest.flush(() => (called = true));
  await Promise.resolve();
  t.ok(writes.at(-1)!.endsWith(`${line}last\n`), 'what waited, in one write');
  t.ok(called, 'flush calls back (pino logger.flush)');
  t.equal(clock.pendingTimers(), 0);
});

t.test('the JSON logger writes its lines through the batcher, redacted', async (t) => {
  const clock = fakeClock();
  const { out, writes } = sink();
  const logger = createLogger('info', { pretty: false, destination: out, clock });
  logger.info({ key: 'sk_local_secret' }, 'hello');
  logger.info('again');
  logger.debug('not at this level');
  logger.flush();
  await Promise.resolve();
  const lines = writes.join('').trim().split('\n');
  t.equal(lines.length, 2);
  t.match(lines[0], /"key":"\[redacted\]".*"msg":"hello"/);
  t.notMatch(writes.join(''), /sk_local_secret/);
});

t.test('only request lines wait: any other line is written at once, after what waited', async (t) => {
  const clock = fakeClock();
  const { out, writes } = sink();
  const logger = createLogger('info', { pretty: false, destination: out, clock });
  logger.info('sms-gateway is listening');
  await Promise.resolve();
  t.equal(writes.length, 1, 'the first line at once');
  clock.advance(100);
  logger.info({ method: 'GET', status: 200 }, 'request');
  logger.info({ method: 'GET', status: 200 }, 'request');
  await Promise.resolve();
  t.equal(writes.length, 1, 'request lines in a burst wait');
  logger.warn('hand-off timed out: the queue pauses');
  await Promise.resolve();
  t.equal(writes.length, 2, 'a line that is not a request line does not wait');
  const last = writes[1]!.trim().split('\n');
  t.equal(last.length, 3, 'it took the waiting request lines with it');
  t.match(last[2], /"msg":"hand-off timed out/, 'in their order');
  t.equal(clock.pendingTimers(), 0, 'nothing waits: no timer');
});

t.test(
  'the request line writer writes the bytes pino writes for the same fields, through the same batcher',
  async (t) => {
    const clock = fakeClock();
    const { out, writes } = sink();
    const logger = createLogger('info', { pretty: false, destination: out, clock });
    const line = {
      reqId: 'req-1a',
      method: 'GET',
      route: '/api/messages/:id',
      status: 404,
      ms: 12.3,
      caller: '192.168.1.20',
    };
    logger.info({ ...line }, 'request');
    logger.info(
      { ...line, route: '(no route)', status: 400, ms: 0, caller: '::ffff:10.0.0.7', method: 'M-SEARCH' },
      'request',
    );
    const write = requestLineWriter(logger);
    write(line);
    write({ ...line, route: '(no route)', status: 400, ms: 0, caller: '::ffff:10.0.0.7', method: 'M-SEARCH' });
    t.equal(writes.length, 1, "the first line at once, the next three wait in the batcher (the writer's too)");
    logger.flush();
    await Promise.resolve();
    const lines = writes
      .join('')
      .trim()
      .split('\n')
      .map((l) => l.replace(/"time":\d+/, '"time":0'));
    t.equal(lines.length, 4);
    t.equal(lines[2], lines[0], 'byte for byte what logger.info writes');
    t.equal(lines[3], lines[1], 'and for the other fields');
    t.ok(isRequestLine(`${lines[2]}\n`), 'recognized as a request line');
  },
);

t.test('on a terminal, the request line is shown short like any request line', async (t) => {
  const { out, writes } = sink();
  const logger = createLogger('info', { pretty: true, destination: out });
  requestLineWriter(logger)({
    reqId: 'req-2',
    method: 'POST',
    route: '/api/messages',
    status: 202,
    ms: 4.5,
    caller: '192.168.1.22',
  });
  await new Promise((r) => setImmediate(r));
  t.match(writes.join(''), /^\d\d:\d\d:\d\d POST \/api\/messages 202 4\.5ms 192\.168\.1\.22\n$/);
});

t.test(
  "createLogger's loggers get the direct request line (not pino's info); any other logger gets pino's info",
  async (t) => {
    const line = { reqId: 'req-3', method: 'GET', route: '/health', status: 200, ms: 1.5, caller: '192.168.1.20' };
    const { out, writes } = sink();
    const ours = createLogger('info', { pretty: false, destination: out, clock: fakeClock() });
    ours.info = () => t.fail("pino's info was used for a logger createLogger made");
    requestLineWriter(ours)(line);
    ours.flush();
    await Promise.resolve();
    t.match(writes.join(''), /"reqId":"req-3".*"msg":"request"}\n$/, 'written straight to its destination');

    const other = pino({ base: undefined }, new PassThrough());
    const seen: unknown[] = [];
    other.info = (obj: unknown, msg?: string) => void seen.push([obj, msg]);
    requestLineWriter(other)(line);
    t.same(seen, [[line, 'request']], 'another logger: logger.info with the same fields');
  },
);
