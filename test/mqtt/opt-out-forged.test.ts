// What any broker client may publish on `<prefix>/opt-outs/<number>` (docs/mqtt.md): a change
// dated more than 5 minutes ahead is ignored and logged (without the payload); a removal
// without a valid proof under SMS_GATEWAY_MQTT_SHARE_SECRET takes no number off (an addition
// without one still adds); a gateway restores the broker's copy of its own change; nothing
// malformed makes GET /api/opt-outs answer other than 200; without a secret, removals read
// there are never applied and the start log says so once. Real Mosquitto, gateways in process.
import t, { type Test } from 'tap';
import mqtt from 'mqtt';
import { listen, noBroker, startBroker, waitFor } from './broker.js';
import { RESTORE_EVERY_MS } from '../../src/mqtt/opt-out-restore.js';
import { optOutGateway, proofOf, SECRET } from './opt-out-gateway.js';

const NUMBER = '+15550002003';
const TOPIC = 'sms-gateway/opt-outs/%2B15550002003';
const OTHER = '+15550002004';
const OTHER_TOPIC = 'sms-gateway/opt-outs/%2B15550002004';
const MARK = 'FORGED-PAYLOAD-MARK';

/** An anonymous client of the broker; `drain` publishes a marker addition and waits until `seen` says it arrived. */
async function stranger(t: Test, url: string) {
  const pub = await mqtt.connectAsync(url, { protocolVersion: 5 });
  t.teardown(() => pub.endAsync(true));
  let marks = 0;
  const send = (topic: string, payload: string | Buffer, retain = true) =>
    pub.publishAsync(topic, payload, { qos: 1, retain });
  /** A marker addition after what was sent: once listed, all before it was read (one connection, in order). */
  const drain = async (listed: (n: string) => Promise<boolean>, at: number) => {
    const marker = `+1555000900${marks++}`;
    await send(
      `sms-gateway/opt-outs/${encodeURIComponent(marker)}`,
      JSON.stringify({ optedOut: true, at, by: 'api' }),
      false,
    );
    await waitFor(() => listed(marker), 'the marker');
  };
  return { send, drain };
}

t.test(
  'a forged far-future at and an anonymous opt-in change nothing; the list always answers 200',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const a = await optOutGateway(t, broker.url, 'gw1');
    t.equal(
      (
        await a.app.app.inject({
          method: 'POST',
          url: '/api/opt-outs',
          headers: a.app.auth,
          payload: { number: NUMBER },
        })
      ).statusCode,
      201,
    );
    const now = a.app.clock.now();
    const s = await stranger(t, broker.url);
    const listedOnA = async (n: string) => (await a.listed()).numbers.includes(n);

    // Issue 44 item 3: a retained far-future entry for a number not listed, with and without `by`.
    await s.send(OTHER_TOPIC, JSON.stringify({ optedOut: true, at: Number.MAX_SAFE_INTEGER }));
    await s.send(OTHER_TOPIC, JSON.stringify({ optedOut: true, at: Number.MAX_SAFE_INTEGER, by: 'api' }));
    // Dated 5 min 1 s ahead, even with a valid proof: ignored.
    const ahead = now + 5 * 60_000 + 1000;
    await s.send(
      OTHER_TOPIC,
      JSON.stringify({ optedOut: true, at: ahead, by: 'api', proof: proofOf(SECRET, OTHER, true, ahead) }),
    );
    // Issue 44 item 4: an anonymous opt-in dated a second ahead; a wrong proof; a proof under another secret.
    await s.send(TOPIC, JSON.stringify({ optedOut: false, at: now + 1000, by: 'api' }));
    await s.send(TOPIC, JSON.stringify({ optedOut: false, at: now + 2000, by: 'api', proof: '0'.repeat(64) }));
    const otherSecret = proofOf('another-installations-secret', NUMBER, false, now + 3000);
    await s.send(TOPIC, JSON.stringify({ optedOut: false, at: now + 3000, by: 'api', proof: otherSecret }));
    await s.send(
      TOPIC,
      JSON.stringify({ optedOut: false, at: now + 4000, by: 'api', proof: `${MARK}${'a'.repeat(45)}` }),
    );
    // Malformed in every way a broker can hold.
    const malformed: (string | Buffer)[] = [
      `{"optedOut":false,"at":NaN,"by":"${MARK}"}`,
      `{"optedOut":false,"at":"${now + 5000}","by":"api"}`,
      `{"optedOut":false,"at":1e400,"by":"api"}`,
      `{"optedOut":false,"at":-1,"by":"api"}`,
      `{"optedOut":false,"at":${now + 6000}.5,"by":"api"}`,
      `{"optedOut":"false","at":${now + 7000},"by":"api"}`,
      '[]',
      'null',
      `not json ${MARK}`,
      Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
      `{"optedOut":false,"at":${now + 8000},"by":"${'x'.repeat(2000)}"}`,
      '['.repeat(500) + ']'.repeat(500),
    ];
    for (const payload of malformed) await s.send(TOPIC, payload);
    await s.drain(listedOnA, now);

    const list = await a.listed();
    t.equal(list.status, 200, 'GET /api/opt-outs answers 200');
    t.ok(list.numbers.includes(NUMBER), 'the listed number is still listed');
    t.notOk(list.numbers.includes(OTHER), 'the far-future entries added nothing');
    t.equal((await a.app.send({ to: NUMBER, message: 'must not go' })).statusCode, 409, 'and nothing is sent to it');
    t.match(a.app.gateway.sending.optOuts.get(NUMBER), { optedOut: true, by: 'api' });

    const logged = a.lines.join('');
    t.notOk(logged.includes(MARK), 'no payload is logged');
    t.notOk(logged.includes(SECRET), 'the secret is never logged');
    t.notOk(logged.includes('15550002003') || logged.includes('15550002004'), 'nor a number (nor a topic naming it)');
    const warnings = a.lines.map((l) => JSON.parse(l) as { level: number; why?: string }).filter((l) => l.level === 40);
    t.equal(
      warnings.filter((w) => w.why === 'future').length,
      1,
      'the far-future change is logged, once for the number',
    );
    t.equal(
      warnings.filter((w) => w.why === 'unproven').length,
      1,
      'the unproven removals are logged, once for the number',
    );

    // The gateway puts its own change back on the broker (at once, then at most every 5 minutes, so
    // after the last forgery once the 5 minutes are up): a phone that starts later reads the listing.
    a.app.clock.advance(RESTORE_EVERY_MS);
    const late = await optOutGateway(t, broker.url, 'gw2');
    await waitFor(async () => (await late.listed()).numbers.includes(NUMBER), 'a later phone reads the listing');
    t.equal((await late.listed()).status, 200);
    t.notOk((await late.listed()).numbers.includes(OTHER), 'nor does the later phone take the far-future entry');
  },
);

t.test(
  'without a share secret: additions are shared, removals read from the broker are not applied',
  { skip: noBroker },
  async (t) => {
    const broker = await startBroker(t);
    const { heard } = await listen(t, broker.url, ['sms-gateway/opt-outs/+']);
    const a = await optOutGateway(t, broker.url, 'gw1', { secret: undefined });
    const b = await optOutGateway(t, broker.url, 'gw2', { secret: undefined });
    const onB = async (n: string) => (await b.listed()).numbers.includes(n);
    b.app.clock.advance(5000);
    await a.receive(NUMBER, 'STOP');
    await waitFor(() => onB(NUMBER), 'gw2 lists the STOP gw1 got');
    t.notOk('proof' in (JSON.parse(heard.at(-1)!.payload) as object), 'no proof without a secret');
    await a.receive(NUMBER, 'START');
    await waitFor(() => heard.filter((h) => h.topic === TOPIC).length >= 2, 'the START published');
    const s = await stranger(t, broker.url);
    await s.drain(onB, b.app.clock.now());
    t.ok(await onB(NUMBER), 'gw2 does not take the number off');
    t.notOk(a.app.gateway.sending.optOuts.isListed(NUMBER), 'gw1 took it off itself');
    for (const g of [a, b]) {
      const notes = g.lines.filter((l) => l.includes('SMS_GATEWAY_MQTT_SHARE_SECRET is not set'));
      t.equal(notes.length, 1, 'the start log says so once');
      t.match(JSON.parse(notes[0]!), { level: 40 });
    }
  },
);

t.test('phones with different secrets: an addition is shared, a removal is not', { skip: noBroker }, async (t) => {
  const broker = await startBroker(t);
  const { heard } = await listen(t, broker.url, [TOPIC]);
  const a = await optOutGateway(t, broker.url, 'gw1', { secret: 'the-first-phones-secret-text' });
  const b = await optOutGateway(t, broker.url, 'gw2');
  const onB = async (n: string) => (await b.listed()).numbers.includes(n);
  await a.receive(NUMBER, 'STOP');
  await waitFor(() => onB(NUMBER), 'gw2 lists the STOP gw1 got');
  await a.receive(NUMBER, 'START');
  // Once the broker forwarded the removal, gw2 has it before the marker published after it.
  await waitFor(() => heard.some((h) => h.payload.includes('"optedOut":false')), 'the START published');
  await (await stranger(t, broker.url)).drain(onB, b.app.clock.now());
  t.ok(await onB(NUMBER), 'the removal under another secret is not applied');
  t.ok(
    b.lines.some((l) => l.includes('"why":"unproven"') && l.includes('"level":40')),
    'and is logged',
  );
});
