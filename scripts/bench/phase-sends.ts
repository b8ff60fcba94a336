// Phase 3, sends: one-segment sends in real mode through an instant fake
// termux-sms-send, then a 60 s mixed soak (health, history, sends, 404s, 401s) on the
// same gateway, sampling its RSS for growth.
import { makeCallers, runOpenLoop, steady, summarize, type Caller, type Event, type RequestSpec } from './load.js';
import { log, percentile, round, rssOf } from './measure.js';
import { apiKey, fakeExecMs, makeFake, newHome, startGateway, stopProc, waitForHealth } from './processes.js';
import { SEND_SAMPLES, SEND_SPACING_MS, SOAK_MS, SOAK_WARMUP_MS } from './settings.js';
import { loopback } from './load.js';

export async function sendsPhase() {
  const fake = makeFake();
  const fakeMs = fakeExecMs(fake);
  const realHome = newHome('real');
  const realKey = apiKey(realHome);
  const auth = { authorization: `Bearer ${realKey}` };
  log(
    `send: ${SEND_SAMPLES} one-segment sends ${SEND_SPACING_MS} ms apart (real mode, instant fake termux-sms-send) ...`,
  );
  const real = startGateway(realHome, fake);
  let send, soak;
  try {
    await waitForHealth(real);
    const sendCaller = makeCallers(['127.0.0.70']);
    const sendSpec = (_caller: Caller, n: number): Omit<RequestSpec, 'caller'> => {
      return {
        kind: 'send',
        path: '/api/sms/send',
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          to: '+1 555 555 0100',
          message: `bench message ${n}: the pump in the cellar is running.`,
        }),
        expect: 200,
      };
    };
    const sends = await runOpenLoop(
      real.port,
      steady(sendCaller, 1000 / SEND_SPACING_MS, SEND_SAMPLES * SEND_SPACING_MS, sendSpec),
    );
    const sendSummary = summarize(sends.samples);
    const accepted = sends.samples.filter((s) => s.status === 200).map((s) => s.ms);
    send = {
      p50Ms: round(percentile(accepted, 50)),
      p99Ms: round(percentile(accepted, 99)),
      samples: accepted.length,
      failed: sendSummary.failed,
      non200: sendSummary.unexpected,
      handoffs: fake.calls(),
      handoffsAfterSoak: 0,
      fakeExecMs: fakeMs,
      errors: sendSummary.errors,
    };

    log(
      `soak: ${SOAK_WARMUP_MS / 1000} s warm-up + ${SOAK_MS / 1000} s mixed load (health, history, 1 send/s, 404s, 401s) ...`,
    );
    const total = SOAK_WARMUP_MS + SOAK_MS;
    const healthCallers = makeCallers(loopback(10, 25));
    const historyCallers = makeCallers(loopback(35, 20));
    const notFoundCaller = makeCallers(['127.0.0.60']);
    const unauthCaller = makeCallers(['127.0.0.61']);
    const rss: { atS: number; rssMb: number }[] = [];
    const sampleRss = (atMs: number) => () => rss.push({ atS: atMs / 1000, rssMb: rssOf(real.pid).rssMb });
    const events: Event[] = [
      ...steady(healthCallers, 8, total, () => ({ kind: 'health', path: '/health', expect: 200 })),
      ...steady(historyCallers, 5, total, () => ({
        kind: 'history',
        path: '/api/messages?limit=20',
        headers: auth,
        expect: 200,
      })),
      ...steady(notFoundCaller, 2, total, (_c, n) =>
        n % 2 === 0
          ? { kind: 'not-found', path: '/api/messages/msg_00000000000000000000000000', headers: auth, expect: 404 }
          : { kind: 'not-found', path: '/api/no-such-route', headers: auth, expect: 404 },
      ),
      ...steady(unauthCaller, 2, total, () => ({
        kind: 'unauthorized',
        path: '/api/messages?limit=20',
        headers: { authorization: 'Bearer wrong-key' },
        expect: 401,
      })),
      ...steady(sendCaller, 1000 / SEND_SPACING_MS, total, sendSpec, SEND_SPACING_MS),
    ];
    for (let at = SOAK_WARMUP_MS; at < total; at += 5000) events.push({ at, mark: sampleRss(at) });
    const run = await runOpenLoop(real.port, events);
    rss.push({ atS: total / 1000, rssMb: rssOf(real.pid).rssMb });
    for (const c of [...healthCallers, ...historyCallers, ...notFoundCaller, ...unauthCaller, ...sendCaller])
      c.agent.destroy();
    const s = summarize(run.samples);
    const byKind: Record<string, number> = {};
    for (const sample of run.samples) byKind[sample.kind] = (byKind[sample.kind] ?? 0) + 1;
    const start = rss[0]!.rssMb;
    const end = rss[rss.length - 1]!.rssMb;
    soak = {
      rssGrowthPercent: round(((end - start) / start) * 100),
      rssStartMb: start,
      rssEndMb: end,
      rssSamplesMb: rss,
      requests: s.requests,
      byKind,
      failed: s.failed,
      unexpectedStatus: s.unexpected,
      p99Ms: s.p99Ms,
      errors: s.errors,
    };
    send.handoffsAfterSoak = fake.calls();
  } finally {
    await stopProc(real);
  }
  return { send, soak, fakeMs };
}
