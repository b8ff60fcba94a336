// Every part reads the watched clock (core/clock-watch.ts), the HTTP part's routes included: a
// wall-clock jump that a request's read of the time is the first to see is announced on the
// event path as `clock.jumped`, so every schedule is looked at again.
import t from 'tap';
import { testApp } from '../helpers/test-app.js';

t.test("a jump first seen by a route's read of the time is announced", async (t) => {
  const { gateway, clock, get } = await testApp(t);
  const jumps: number[] = [];
  gateway.events.on('clock.jumped', (jump) => jumps.push(jump.deltaMs));
  clock.set(clock.now() + 3_600_000); // the wall clock alone moves an hour ahead
  const res = await get('/api/stats');
  t.equal(res.statusCode, 200);
  t.same(jumps, [3_600_000], 'GET /api/stats read the watched clock: the jump was announced once');
});
