// The connection table runs on the gateway's injected clock (server/app.ts passes it to
// limitConnections): with a fake clock, a connection that never completes its headers is
// closed when that clock passes HEADERS_TIMEOUT_MS, not by a real timer.
import t from 'tap';
import { connect } from 'node:net';
import { HEADERS_TIMEOUT_MS } from '../../src/http/flood/limits.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

t.test('a connection without complete headers is closed on the fake clock', async (t) => {
  const clock = fakeClock();
  const { app } = await testApp(t, { clock });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  const before = clock.pendingTimers();
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  socket.write('GET /health HTTP/1.1\r\nHost: a\r\n'); // the headers never end
  for (let i = 0; i < 100 && clock.pendingTimers() === before; i++) await new Promise((r) => setTimeout(r, 10));
  t.equal(clock.pendingTimers(), before + 1, 'the sweep is armed on the fake clock');
  clock.advance(HEADERS_TIMEOUT_MS - 1);
  await new Promise((r) => setTimeout(r, 50));
  t.equal(socket.destroyed, false, 'still open 1 ms before');
  clock.advance(1);
  await closed;
  t.pass('closed when the fake clock reached the deadline');
});
