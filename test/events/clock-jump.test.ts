// Webhook events across a wall-clock correction (issue 34, case 5), through the real
// gateway on fake wall and monotonic clocks and a real local receiver: an event made
// while the phone's clock was years behind is not "older than 24 hours" once network time
// corrects it; one made before the clock was set back still ends 24 real hours after it
// was made. The jump moves the pending events' times with it (store/outbox.ts).
import t from 'tap';
import { GIVE_UP_AFTER_MS, MAX_RETRY_DELAY_MS } from '../../src/events/delivery.js';
import { startReceiver } from '../fixtures/receiver.js';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';

const YEARS = 3 * 365 * 86_400_000;

t.test('a clock corrected years forward: a 40 s old event is delivered, not expired', async (t) => {
  const rx = await startReceiver(t, (n) => (n === 0 ? 503 : 200));
  const clock = fakeClock(Date.UTC(2023, 0, 1, 0, 0, 0)); // rebooted without network time
  const { send, gateway } = await testApp(t, { clock, webhookUrls: [rx.url], random: () => 0.5 });
  await send({ to: '12345', message: 'x' });
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 1, 'the first attempt failed (503)');
  clock.advance(10_000);
  clock.set(clock.now() + YEARS); // network time arrives
  clock.advance(30_000); // the retry is due (15 s), the event is 40 s old
  await gateway.webhooks.delivery.runDue();
  t.equal(rx.received.length, 2, 'the retry was attempted');
  t.match(gateway.webhooks.outbox.status()[0], { pending: 0, delivered: 1, expired: 0 }, 'delivered, not expired');
});

t.test('a clock set years back: an event made before still ends 24 real hours after it was made', async (t) => {
  const rx = await startReceiver(t, () => 503);
  const clock = fakeClock();
  const { send, gateway } = await testApp(t, { clock, webhookUrls: [rx.url], random: () => 0.5 });
  await send({ to: '12345', message: 'x' });
  const made = clock.monotonicMs();
  await gateway.webhooks.delivery.runDue();
  clock.set(clock.now() - YEARS);
  const attemptsAt: number[] = [];
  for (let i = 0; i < 40 && gateway.webhooks.outbox.status()[0]!.pending > 0; i++) {
    const before = rx.received.length;
    await gateway.webhooks.delivery.runDue();
    for (let k = before; k < rx.received.length; k++) attemptsAt.push(clock.monotonicMs() - made);
    clock.advance(MAX_RETRY_DELAY_MS);
  }
  t.match(gateway.webhooks.outbox.status()[0], { pending: 0, expired: 1 }, 'expired within 40 hours, not years later');
  t.same(
    attemptsAt.filter((a) => a >= GIVE_UP_AFTER_MS),
    [],
    'no attempt 24 real hours after it was made',
  );
  t.ok(attemptsAt.length >= 20, `retried meanwhile (${attemptsAt.length} attempts)`);
});

t.test('a correction while an attempt is in flight: the failed attempt is retried, not given up', async (t) => {
  const rx = await startReceiver(t, (n) => (n === 0 ? 'hang' : 200));
  const clock = fakeClock(Date.UTC(2023, 0, 1, 0, 0, 0));
  const { send, gateway, get } = await testApp(t, {
    clock,
    webhookUrls: [rx.url],
    webhookTimeoutMs: 1000,
    random: () => 0.5,
  });
  await send({ to: '12345', message: 'x' });
  const attempt = gateway.webhooks.delivery.runDue(); // the first attempt hangs (1 s timeout)
  while (rx.received.length === 0) await new Promise((r) => setTimeout(r, 10));
  clock.set(clock.now() + YEARS); // network time arrives meanwhile
  t.equal((await get('/api/diagnostics')).statusCode, 200); // reads the time: the jump is seen
  await attempt;
  t.match(
    gateway.webhooks.outbox.status()[0],
    { pending: 1, expired: 0, lastError: 'no answer within 1 s' },
    'failed, to be retried',
  );
  clock.advance(15_000);
  await gateway.webhooks.delivery.runDue();
  t.match(gateway.webhooks.outbox.status()[0], { pending: 0, delivered: 1, expired: 0 }, 'delivered on the retry');
});
