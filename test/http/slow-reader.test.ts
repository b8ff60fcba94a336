// A caller that pipelines requests for large answers and never reads them (issue 34, case 1)
// through the real HTTP server on loopback: its connection is closed and counted in /metrics
// (sms_gateway_slow_reader_connections_closed_total) once its answer makes no progress for
// WRITE_STALL_MS on the fake clock, or when it pipelines more than MAX_WAITING_REQUESTS
// requests behind an answer; another caller, and its own address on another connection, are
// served meanwhile; a newcomer's request is handed to the app before the queued requests of a
// busy address are all served (fair turns). The callers are loopback addresses of
// their own (127.0.0.0/8 is all on `lo`), so the per-address counts are theirs.
import t from 'tap';
import type { Test } from 'tap';
import { connect, type Socket } from 'node:net';
import { request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { newMessageId } from '../../src/core/ids.js';
import { MAX_WAITING_REQUESTS, WRITE_STALL_MS } from '../../src/http/flood/answer-gate.js';
import { fakeClock, type FakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

/** About 15 KB per message, 100 on a page: an answer of about 1.5 MB. */
const LONG_BODY = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(260);
const PAGE = '/api/messages?limit=100';

async function gatewayWithHistory(t: Test, clock: FakeClock) {
  const gw = await testApp(t, { clock });
  for (let i = 0; i < 100; i++) {
    const createdAt = clock.now() - 1000 * (100 - i);
    gw.gateway.sending.messages.insertQueued({
      id: newMessageId(createdAt),
      to: '+4915100000000',
      sendTo: '+4915100000000',
      body: LONG_BODY,
      segments: 1,
      encoding: 'gsm7',
      simSlot: 1,
      sourceIp: '192.168.1.20',
      createdAt,
      statsDay: '2026-11-21',
      idempotencyKey: null,
      requestHash: null,
    });
  }
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = gw.app.server.address() as { port: number };
  return { ...gw, port };
}

/** A connection from `localAddress` that writes `count` pipelined requests and never reads. */
function slowReader(port: number, localAddress: string, key: string, count: number, path = PAGE) {
  const socket: Socket = connect({ port, host: '127.0.0.1', localAddress });
  let error: string | undefined;
  socket.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('connect', () =>
    socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n\r\n`.repeat(count)),
  );
  socket.pause(); // never read: what the gateway sends stays in the kernel's queues, then in its own
  /** Reads at last: what the kernel had queued, then the end of a connection the gateway closed ('open' if it did not). */
  const readNow = async () => {
    socket.on('data', () => {});
    socket.resume();
    const ended = await within(closed, 2000);
    socket.destroy();
    return ended ? (error ?? 'closed') : 'open';
  };
  return { socket, readNow };
}

/** The gateway's side of its connections, by the caller's address. */
function serverSockets(server: Server) {
  const sockets: Socket[] = [];
  server.on('connection', (s: Socket) => sockets.push(s));
  return (address: string) => sockets.filter((s) => s.remoteAddress === address);
}

/** Resolves true when `p` settles within `ms` of real time, else false. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([p.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until `holding()`, moving the fake clock 100 ms at a time so the answer pace lets the
 * next page through (its burst covers one page): never after the answer that holds was handed
 * over, so that answer's stall is counted from the clock's time now.
 */
async function untilHolding(clock: FakeClock, holding: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !holding(); i++) {
    clock.advance(100);
    await pause(25);
  }
}

/** Awaits `answer`, moving the fake clock 100 ms at a time (the answer pace refills on it); also the ms moved. */
async function whileMoving<T>(clock: FakeClock, answer: Promise<T>): Promise<[T, number]> {
  let settled = false;
  void answer.finally(() => (settled = true));
  let moved = 0;
  for (; !settled && moved < 10_000; moved += 100) {
    clock.advance(100);
    await pause(10);
  }
  return [await answer, moved];
}

/** GET /health from another address, on a new connection: its status, or the error's code. */
function witness(port: number, localAddress: string): Promise<number | string> {
  return new Promise((resolve) => {
    const req = request({ port, host: '127.0.0.1', localAddress, path: '/health', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
    req.setTimeout(5000, () => req.destroy(new Error('timeout')));
    req.end();
  });
}

/** The counter's samples in /metrics, by reason. */
async function closedByReason(get: (url: string) => Promise<{ body: string }>): Promise<Record<string, number>> {
  const text = (await get('/metrics')).body;
  const out: Record<string, number> = {};
  for (const m of text.matchAll(/^sms_gateway_slow_reader_connections_closed_total\{reason="(\w+)"\} (\d+)$/gm))
    out[m[1]!] = Number(m[2]);
  return out;
}

t.test(
  'an answer that makes no progress for WRITE_STALL_MS closes its connection, counted; another caller is served',
  async (t) => {
    const clock = fakeClock();
    const { port, key, get, app } = await gatewayWithHistory(t, clock);
    const held = serverSockets(app.server);
    // Enough answers that the kernel's queues (a few MB on loopback) fill and one waits in the gateway.
    const slow = slowReader(port, '127.0.0.2', key, 6);
    const holding = () => held('127.0.0.2').some((s) => s.writableLength > 0);
    await untilHolding(clock, holding);
    t.ok(holding(), 'the gateway holds bytes the slow reader does not take');
    const [status, moved] = await whileMoving(clock, witness(port, '127.0.0.3'));
    t.equal(status, 200, 'another caller is served while the slow reader holds its answer');
    clock.advance(WRITE_STALL_MS - moved - 1);
    await pause(50);
    t.same(await closedByReason(get), {}, 'nothing closed 1 ms before the deadline');
    clock.advance(1);
    await pause(50);
    t.same(
      await closedByReason(get),
      { write_stalled: 1 },
      'closed when no byte went out for WRITE_STALL_MS, and counted in /metrics',
    );
    t.ok(
      held('127.0.0.2').every((s) => s.destroyed),
      "the gateway's side is gone",
    );
    t.not(
      await slow.readNow(),
      'open',
      'reading at last, the slow reader finds its connection closed (its answer cut short)',
    );
    t.equal(await witness(port, '127.0.0.3'), 200, 'the gateway goes on serving');
  },
);

t.test("while an answer of an address is stuck, that address's other connections are still served", async (t) => {
  const clock = fakeClock();
  const { port, key, app } = await gatewayWithHistory(t, clock);
  const held = serverSockets(app.server);
  const slow = slowReader(port, '127.0.0.4', key, 6);
  const holding = () => held('127.0.0.4').some((s) => s.writableLength > 0);
  await untilHolding(clock, holding);
  t.ok(holding(), 'an answer of 127.0.0.4 waits in the gateway');
  t.equal(
    (await whileMoving(clock, witness(port, '127.0.0.4')))[0],
    200,
    'the same address is answered on another connection (a browser downloading a page on slow Wi-Fi)',
  );
  t.equal((await whileMoving(clock, witness(port, '127.0.0.5')))[0], 200, 'another address is served');
  slow.socket.destroy();
});

t.test(`more than ${MAX_WAITING_REQUESTS} requests pipelined behind an answer close the connection`, async (t) => {
  const clock = fakeClock();
  const { port, key, get } = await gatewayWithHistory(t, clock);
  const slow = slowReader(port, '127.0.0.6', key, MAX_WAITING_REQUESTS + 2);
  let counted = await closedByReason(get);
  for (let i = 0; i < 100 && counted.pipeline === undefined; i++) {
    await pause(50);
    counted = await closedByReason(get);
  }
  t.same(counted, { pipeline: 1 }, 'closed, counted as pipeline');
  t.not(await slow.readNow(), 'open', 'the connection is gone');
});

t.test(
  "a new caller's request is handed to the app before another address's queued requests are all served",
  async (t) => {
    const clock = fakeClock();
    const { port, app } = await gatewayWithHistory(t, clock);
    const answered: string[] = [];
    app.server.on('request', (req: IncomingMessage, res: ServerResponse) =>
      res.on('finish', () => answered.push(req.socket.remoteAddress ?? '')),
    );
    const accepted = serverSockets(app.server);
    // Seven connections from one address, three pipelined requests each, and one connection from
    // another: all open before anything is written, all written in one go, so the gateway finds
    // the 22 requests waiting together (the busy address's first).
    const busy = Array.from({ length: 7 }, () => connect({ port, host: '127.0.0.1', localAddress: '127.0.0.7' }));
    const newcomer = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.8' });
    const all = [...busy, newcomer];
    for (const s of all) s.on('data', () => {});
    for (let i = 0; i < 200 && accepted('127.0.0.7').length + accepted('127.0.0.8').length < all.length; i++)
      await pause(10);
    const ask = 'GET /health HTTP/1.1\r\nHost: x\r\n\r\n';
    for (const s of busy) s.write(ask.repeat(3));
    newcomer.write(ask);
    for (let i = 0; i < 200 && answered.length < 22; i++) await pause(10);
    t.equal(answered.length, 22, 'every request answered');
    const before = answered.indexOf('127.0.0.8');
    t.ok(
      before >= 0 && before <= 7,
      `the newcomer is answered after at most one request per busy connection (after ${before} of 21)`,
    );
    for (const s of all) s.destroy();
  },
);

t.test('new addresses asking a page that is lately answered large go after a newcomer asking /health', async (t) => {
  const clock = fakeClock();
  const { port, key, app } = await gatewayWithHistory(t, clock);
  const received: string[] = [];
  const answered: string[] = [];
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    received.push(req.socket.remoteAddress ?? '');
    res.on('finish', () => answered.push(req.socket.remoteAddress ?? ''));
  });
  const read = (localAddress: string, path: string, auth = true) =>
    new Promise<number>((resolve, reject) => {
      const headers = auth ? { authorization: `Bearer ${key}` } : {};
      const req = request({ port, host: '127.0.0.1', localAddress, path, agent: false, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      });
      req.on('error', reject);
      req.end();
    });
  // Two pages read by one caller: the pace's burst is spent (the fake clock does not refill it).
  t.equal(await read('127.0.0.9', PAGE), 200);
  t.equal(await read('127.0.0.9', PAGE), 200);
  answered.length = 0;
  // Five addresses never served before ask the page; then a newcomer asks /health. All wait for the pace.
  const pages = ['127.0.0.10', '127.0.0.11', '127.0.0.12', '127.0.0.13', '127.0.0.14'].map((a) => read(a, PAGE));
  for (let i = 0; i < 200 && received.length < 7; i++) await pause(10);
  const health = read('127.0.0.20', '/health', false);
  for (let i = 0; i < 200 && received.length < 8; i++) await pause(10);
  t.same(answered, [], 'nothing answered while the pace is in debt');
  for (let i = 0; i < 100 && answered.length < 6; i++) {
    clock.advance(200);
    await pause(10);
  }
  t.equal(await health, 200);
  t.same(await Promise.all(pages), [200, 200, 200, 200, 200]);
  t.equal(
    answered[0],
    '127.0.0.20',
    `the newcomer first, the pages are judged by what they ask (${answered.join(' ')})`,
  );
});
