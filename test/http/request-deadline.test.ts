// The flood server's body deadline (src/http/flood/answer-gate.ts): a body not complete within
// 15 s of the headers is cut off (its timer armed only while that body is awaited); a request
// without a body (no Content-Length above 0, no Transfer-Encoding) arms no timer. The server
// has one other timer on the same clock: the connection table's sweep, armed at connect.
import t, { type Test } from 'tap';
import { connect } from 'node:net';
import Fastify from 'fastify';
import { floodServer } from '../../src/http/flood/flood-server.js';
import { REQUEST_TIMEOUT_MS } from '../../src/http/flood/limits.js';
import { fakeClock } from '../helpers/fake-clock.js';

/** The connection table's sweep (connections without complete headers), armed at the first connect. */
const SWEEP = 1;

async function server(t: Test) {
  const clock = fakeClock();
  const app = Fastify({ serverFactory: floodServer({ clock }) });
  let timersAtHandler = -1;
  app.get('/x', async () => {
    timersAtHandler = clock.pendingTimers();
    return { ok: true };
  });
  app.post('/x', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  t.teardown(() => app.close());
  const port = (app.server.address() as { port: number }).port;
  return { clock, port, timersAtHandler: () => timersAtHandler };
}

/** Sends raw bytes; resolves with what came back once the server closed the socket (or after waitMs). */
function raw(port: number, bytes: string, waitMs = 300): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    let closed = false;
    socket.on('data', (d) => (text += d.toString()));
    socket.on('close', () => {
      closed = true;
      resolve({ text, closed });
    });
    socket.write(bytes);
    setTimeout(() => {
      if (!closed) {
        socket.destroy();
        resolve({ text, closed });
      }
    }, waitMs);
  });
}

t.test('a GET without a body arms no timer', async (t) => {
  const s = await server(t);
  const r = await raw(s.port, 'GET /x HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n');
  t.match(r.text, /^HTTP\/1\.1 200/, 'answered');
  t.equal(s.timersAtHandler(), SWEEP, 'no timer but the sweep while it was handled');
  t.equal(s.clock.pendingTimers(), SWEEP, 'none left but the sweep');
});

t.test('a body that stops arriving is cut off 15 s after the headers, by its own timer', async (t) => {
  const s = await server(t);
  const socket = connect(s.port, '127.0.0.1');
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.on('error', () => {});
  socket.write('POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{"a":');
  for (let i = 0; i < 50 && s.clock.pendingTimers() <= SWEEP; i++) await new Promise((r) => setTimeout(r, 10));
  t.equal(s.clock.pendingTimers(), SWEEP + 1, 'one timer while the body is awaited');
  s.clock.advance(REQUEST_TIMEOUT_MS - 1);
  t.equal(socket.destroyed, false, 'still open 1 ms before');
  s.clock.advance(1);
  await closed;
  t.pass('closed at 15 s');
});

t.test('a complete body clears its timer', async (t) => {
  const s = await server(t);
  const r = await raw(
    s.port,
    'POST /x HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
  );
  t.match(r.text, /^HTTP\/1\.1 200/, 'answered');
  t.equal(s.clock.pendingTimers(), SWEEP, 'no timer left but the sweep');
});
