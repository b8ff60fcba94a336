// Text that shows: a message of only characters that display nothing (Cc, Cf, Zs, Zl, Zp,
// combining marks alone, default-ignorables) is 400 invalid_request "has no visible
// character" on POST /api/sms/send, POST /api/messages and the MQTT send topic (answered on
// the errors topic): nothing handed off, nothing recorded, nothing counted. A message with
// one visible character (a base with its marks too) is taken as before.
import t from 'tap';
import { createSendIntake } from '../../src/mqtt/send-intake.js';
import { topicsFor } from '../../src/mqtt/topics.js';
import { hasVisibleCharacter } from '../../src/sms/visible-text.js';
import { testApp } from '../helpers/test-app.js';

const TO = '+15550001111';
const NO_VISIBLE = /^Invalid request: body\.message has no visible character \(/;

/** Every class of character that displays nothing, named, alone and mixed. */
const INVISIBLE: [string, string][] = [
  ['Cc: DEL', '\u007f'],
  ['Cc: C1 controls (PAD, NEL, APC)', '\u0080\u0085\u009f'],
  ['Cc: NUL and C0 controls', '\u0000\u0001\u001b'],
  ['Cc: tab and newlines with a C1 control', '\t\r\n\u0085'],
  ['Zs: no-break space', '\u00a0'],
  ['Zs: the other spaces (en quad, ideographic, narrow NBSP)', '\u2000\u3000\u202f'],
  ['Cf: zero-width space', '\u200b'],
  ['Cf: BOM / zero-width no-break space', '\ufeff'],
  ['Cf: ZWJ, ZWNJ, word joiner, soft hyphen', '\u200d\u200c\u2060\u00ad'],
  ['Cf: bidi marks and isolates', '\u200e\u200f\u202e\u2066\u2069'],
  ['Cf: a language tag (astral)', '\u{e0001}\u{e0065}'],
  ['Zl: line separator', '\u2028'],
  ['Zp: paragraph separator', '\u2029'],
  ['Mn: a lone combining acute accent', '\u0301'],
  ['Mn: stacked combining marks without a base', '\u0301\u0308\u0323'],
  ['Me: a lone enclosing circle', '\u20dd'],
  ['Mc: a lone spacing mark (Devanagari visarga)', '\u0903'],
  ['M after a space: still no base character', ' \u0301'],
  ['variation selector alone', '\ufe0f'],
  ['Hangul filler (default ignorable)', '\u3164'],
  ['everything above at once', '\u007f\u0085\u00a0\u200b\ufeff\u2028\u2029\u0301\u3164'],
];

/** Messages with a visible character: taken exactly as today. */
const VISIBLE: [string, string][] = [
  ['a letter', 'a'],
  ['a digit', '7'],
  ['punctuation', '.'],
  ['a symbol', '€'],
  ['an emoji', '😀'],
  ['an emoji with ZWJ and variation selector', '👩\u200d💻\ufe0f'],
  ['a base character followed by combining marks', 'e\u0301\u0323'],
  ['a letter among invisible ones', '\u200b\u00a0x\u2028\u0301'],
  ['a private-use character', '\ue000'],
  ['CJK', '漢'],
];

t.test('the rule itself: every named class is invisible, every visible sample is not', async (t) => {
  for (const [name, text] of INVISIBLE) t.equal(hasVisibleCharacter(text), false, name);
  for (const [name, text] of VISIBLE) t.equal(hasVisibleCharacter(text), true, name);
});

t.test(
  'HTTP: send and queue refuse invisible-only text with 400; nothing handed off, recorded or counted',
  async (t) => {
    const { send, queue, handoffs, gateway, get } = await testApp(t);
    for (const [name, message] of INVISIBLE) {
      for (const [path, call] of [
        ['/api/sms/send', send],
        ['/api/messages', queue],
      ] as const) {
        const res = await call({ to: TO, message });
        t.equal(res.statusCode, 400, `${path} ${name}`);
        t.match(
          res.json(),
          { success: false, error: { code: 'invalid_request', message: NO_VISIBLE } },
          `${path} ${name}`,
        );
      }
    }
    t.equal(handoffs.length, 0, 'nothing handed off');
    t.equal(gateway.sending.messages.count(), 0, 'nothing recorded');
    t.match(
      gateway.sending.stats.allTime(),
      { accepted: 0, segments: 0, billedSegments: 0 },
      'nothing counted or billed',
    );
    t.equal((await get('/api/messages')).json().data.length, 0, 'the history is empty');
  },
);

t.test('HTTP: text with a visible character is taken as before', async (t) => {
  const { send, queue, handoffs, gateway } = await testApp(t);
  // Sends first, then the queue: a queued hand-off between two sends would take the
  // spacing the next send's fake-clock second was meant for (the clock moves only in send()).
  for (const [name, message] of VISIBLE) t.equal((await send({ to: TO, message })).statusCode, 200, `send ${name}`);
  for (const [name, message] of VISIBLE) t.equal((await queue({ to: TO, message })).statusCode, 202, `queue ${name}`);
  t.same(
    handoffs.map((h) => h.text),
    VISIBLE.map(([, m]) => m),
    'handed off exactly as given',
  );
  t.equal(gateway.sending.messages.count(), VISIBLE.length * 2);
});

t.test(
  'MQTT: invisible-only text is answered on the errors topic, never queued (send and notify topics)',
  async (t) => {
    const { gateway, handoffs } = await testApp(t);
    const topics = topicsFor('sms-gateway', 'gw1');
    const published: {
      topic: string;
      body: { error: { code: string; message: string }; topic: string; id?: string };
    }[] = [];
    const intake = createSendIntake({
      enqueue: gateway.sending.enqueue,
      topics,
      contacts: [{ name: 'Alice', slug: 'alice', number: '+15551230001' }],
      publish: (topic, payload) => published.push({ topic, body: JSON.parse(payload) }) > 0,
    });
    for (const [name, message] of INVISIBLE) {
      published.length = 0;
      await intake.handle(topics.send, Buffer.from(JSON.stringify({ to: TO, message, id: 'k-1' })));
      t.equal(published.length, 1, `send topic: ${name}`);
      t.equal(published[0]?.topic, topics.errors, name);
      t.match(
        published[0]?.body,
        { error: { code: 'invalid_request', message: NO_VISIBLE }, topic: topics.send, id: 'k-1' },
        name,
      );
      published.length = 0;
      const notify = `${topics.notifyFilter.slice(0, -1)}alice`;
      await intake.handle(notify, Buffer.from(message));
      t.match(
        published,
        [{ topic: topics.errors, body: { error: { code: 'invalid_request' }, topic: notify } }],
        `notify topic: ${name}`,
      );
    }
    t.equal(gateway.sending.messages.count(), 0, 'nothing recorded');
    t.match(
      gateway.sending.stats.allTime(),
      { accepted: 0, segments: 0, billedSegments: 0 },
      'nothing counted or billed',
    );
    await gateway.sending.lane.runDue();
    t.equal(handoffs.length, 0, 'nothing handed off');
    await intake.handle(topics.send, Buffer.from(JSON.stringify({ to: TO, message: 'e\u0301' })));
    t.equal(gateway.sending.messages.count(), 1, 'a visible text is queued as before');
  },
);
