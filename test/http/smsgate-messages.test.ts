// SMSGate's message routes on the composed gateway, with Basic <any user>:<key>: POST /messages
// (and /message) through the durable queue, 202 with the message state and Location, every field
// and refusal, 409 on a reused id (also while the first is being handled), GET by id, the states
// map, and that POST /api/messages is unchanged.
import t from 'tap';
import type { RunResult } from '../../src/device/termux.js';
import { testApp } from '../helpers/test-app.js';
import { smsgateClient } from '../helpers/smsgate-client.js';
import { fillQueue } from '../helpers/fill-queue.js';

t.test('POST /messages: 202, the message state, Location, one queued record per recipient', async (t) => {
  const app = await testApp(t);
  await app.gateway.sending.lane.stop(); // nothing leaves: the states stay as accepted
  const sg = smsgateClient(app);
  const res = await sg.post('/messages', {
    textMessage: { text: 'Practice moved to 18:00' },
    phoneNumbers: ['+1 555 010 0001', '+15550100002'],
  });
  t.equal(res.statusCode, 202);
  const body = res.json();
  t.match(body.id, /^[A-Za-z0-9_-]{21}$/, 'an id made by the gateway');
  t.equal(res.headers.location, `/messages/${body.id}`);
  t.same(body, {
    id: body.id,
    deviceId: sg.deviceId(),
    state: 'Pending',
    isHashed: false,
    isEncrypted: false,
    textMessage: { text: 'Practice moved to 18:00' },
    recipients: [
      { phoneNumber: '+1 555 010 0001', state: 'Pending' },
      { phoneNumber: '+15550100002', state: 'Pending' },
    ],
    states: { Pending: new Date(app.clock.now()).toISOString() },
  });
  const records = (await app.get('/api/messages?status=queued')).json().data;
  t.equal(records.length, 2, 'two queued records');
  t.ok(
    records.every((r: { origin: string }) => r.origin === 'smsgate'),
    'with origin smsgate',
  );
  const again = await sg.get(res.headers.location as string);
  t.equal(again.statusCode, 200);
  t.same(again.json(), body, 'GET by the Location answers the same state');
  const singular = await sg.get(`/message/${body.id}`);
  t.same(singular.json(), body, 'and the singular spelling');
});

t.test('the fields: id, message, simNumber, scheduleAt, ttl, validUntil, priority, ignored ones', async (t) => {
  const app = await testApp(t);
  await app.gateway.sending.lane.stop();
  const sg = smsgateClient(app);
  const now = app.clock.now();
  const later = new Date(now + 3600_000).toISOString();
  const res = await sg.post('/message?skipPhoneValidation=true', {
    id: 'order-42',
    message: 'Your order shipped',
    phoneNumbers: ['+15550100003'],
    simNumber: 2,
    scheduleAt: later,
    ttl: 7200,
    priority: 5,
    withDeliveryReport: true,
    isEncrypted: false,
    deviceId: sg.deviceId(),
    unknownField: 'ignored as SMSGate ignores it',
  });
  t.equal(res.statusCode, 202);
  t.equal(res.headers.location, '/messages/order-42');
  t.match(res.json(), { id: 'order-42', scheduleAt: later, textMessage: { text: 'Your order shipped' } });
  const [record] = (await app.get('/api/messages?status=queued')).json().data;
  t.match(record, { simSlot: 2, sendAt: later, expiresAt: new Date(now + 7200_000).toISOString() });
  const until = new Date(now + 600_000).toISOString();
  const v = await sg.post('/messages', { id: 'v', message: 'x', phoneNumbers: ['+15550100004'], validUntil: until });
  t.equal(v.statusCode, 202);
  t.equal((await app.get('/api/messages?status=queued&limit=1')).json().data[0].expiresAt, until);
});

t.test('each refusal is 400 { message } naming why; nothing queued', async (t) => {
  const app = await testApp(t);
  await app.gateway.sending.lane.stop();
  const sg = smsgateClient(app);
  const now = app.clock.now();
  const one = { phoneNumbers: ['+15550100005'] };
  const cases: [string, unknown, RegExp][] = [
    ['a data message', { ...one, dataMessage: { data: 'aGk=', port: 53739 } }, /dataMessage.*text messages only/],
    ['an encrypted one', { ...one, message: 'x', isEncrypted: true }, /isEncrypted is not supported/],
    ['ttl and validUntil', { ...one, message: 'x', ttl: 60, validUntil: new Date(now + 1e6).toISOString() }, /ttl/],
    ['two kinds of text', { ...one, message: 'x', textMessage: { text: 'y' } }, /exactly one/],
    ['no text', { ...one }, /exactly one of textMessage/],
    ['an empty text', { ...one, textMessage: { text: '' } }, /empty/],
    ['a past scheduleAt', { ...one, message: 'x', scheduleAt: new Date(now - 1000).toISOString() }, /future/],
    ['an expired ttl', { ...one, message: 'x', ttl: -5 }, /already expired/],
    ['another device', { ...one, message: 'x', deviceId: 'someoneElse' }, /device id/],
    ['no recipients', { phoneNumbers: [], message: 'x' }, /phoneNumbers/],
    ['101 recipients', { phoneNumbers: Array.from({ length: 101 }, (_, i) => `+1555${i}0000`), message: 'x' }, /phone/],
    ['a bad number', { phoneNumbers: ['+15550100006', 'call me'], message: 'x' }, /phoneNumbers\[1\]/],
    ['the same number twice', { phoneNumbers: ['+15550100006', '+1 555 010 0006'], message: 'x' }, /phoneNumbers/],
    ['simNumber 0', { ...one, message: 'x', simNumber: 0 }, /simNumber/],
    ['a SIM the phone lacks', { ...one, message: 'x', simNumber: 3 }, /simNumber 3/],
    ['priority 128', { ...one, message: 'x', priority: 128 }, /priority/],
    ['an id of 37 characters', { ...one, message: 'x', id: 'x'.repeat(37) }, /id/],
    ['scheduleAt not a date', { ...one, message: 'x', scheduleAt: 'tomorrow' }, /scheduleAt/],
  ];
  for (const [what, body, why] of cases) {
    const res = await sg.post('/messages', body);
    t.equal(res.statusCode, 400, what);
    t.match(res.json(), { message: why }, what);
    t.same(Object.keys(res.json()), ['message'], `${what}: SMSGate's error shape`);
  }
  const query = await sg.post('/messages?skipPhoneValidation=maybe', { ...one, message: 'x' });
  t.equal(query.statusCode, 400, 'skipPhoneValidation must be true or false');
  t.equal(app.gateway.sending.queue.summary().count, 0, 'nothing queued');
});

t.test('a reused id is 409, also while the first request is being handled; never queued twice', async (t) => {
  const phone = slowPhone();
  const app = await testApp(t, {
    runtime: { mode: 'real', simulation: 'none' },
    simCount: 'probes',
    probeRun: phone.run,
  });
  await app.gateway.sending.lane.stop();
  const sg = smsgateClient(app);
  const body = { id: 'same', message: 'once', phoneNumbers: ['+15550100007', '+15550100008'], simNumber: 2 };
  // simNumber 2 makes the first wait for the phone's SIM count: the retry arrives meanwhile.
  const first = sg.post('/messages', body);
  await phone.asked();
  const retry = await sg.post('/message', body);
  t.equal(retry.statusCode, 409, 'the retry, while the first waits');
  t.match(retry.json(), { message: /same already exists/ });
  t.same(Object.keys(retry.json()), ['message']);
  phone.tells(2);
  t.equal((await first).statusCode, 202, 'the first is queued');
  const later = await sg.post('/messages', { ...body, simNumber: 1, message: 'another text' });
  t.equal(later.statusCode, 409, 'after it is queued, any request with the id');
  t.equal(app.gateway.sending.queue.summary().count, 2, 'two records, once');
});

t.test('POST /api/messages is unchanged: Bearer only, its own shape, origin queue', async (t) => {
  const app = await testApp(t);
  await app.gateway.sending.lane.stop();
  const res = await app.queue({ to: ['+15550100009'], message: 'native', priority: 3 });
  t.equal(res.statusCode, 202);
  t.match(res.json(), { success: true, data: [{ to: '+15550100009', status: 'queued', origin: 'queue' }] });
  t.notOk('priority' in res.json().data[0], 'the record does not show priority');
  t.equal(res.headers.location, undefined);
  const sg = smsgateClient(app);
  const basic = await app.app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: '192.168.1.60',
    headers: { authorization: sg.basic, 'content-type': 'application/json' },
    payload: JSON.stringify({ to: '+15550100009', message: 'x' }),
  });
  t.equal(basic.statusCode, 401, 'Basic is refused on the native route');
});

/** A phone whose SIM count (telephony probe) answers when the test says; every other probe: not found. */
function slowPhone() {
  let answer: ((r: RunResult) => void) | undefined;
  const run = (command: string): Promise<RunResult> => {
    if (command !== 'termux-telephony-deviceinfo') {
      return Promise.resolve({ ok: false, failure: 'not_found', detail: `${command}: not found`, ms: 1 });
    }
    return new Promise<RunResult>((resolve) => (answer = resolve));
  };
  return {
    run,
    /** Resolves once the probe is asked (a few turns of the event loop, bounded). */
    async asked() {
      for (let i = 0; i < 200 && answer === undefined; i++) await new Promise((r) => setImmediate(r));
    },
    tells: (phoneCount: number) => answer?.({ ok: true, stdout: '', json: { phone_count: phoneCount }, ms: 300 }),
  };
}

t.test('the queue decides as for POST /api/messages: opt-out, SMS off, a full queue, not JSON', async (t) => {
  const app = await testApp(t);
  await app.gateway.sending.lane.stop();
  const sg = smsgateClient(app);
  const listed = await app.app.inject({
    method: 'POST',
    url: '/api/opt-outs',
    remoteAddress: '192.168.1.61',
    headers: app.auth,
    payload: { number: '+15550100010' },
  });
  t.equal(listed.statusCode, 201);
  const res = await sg.post('/messages', {
    id: 'optout',
    message: 'x',
    phoneNumbers: ['+15550100010', '+15550100011'],
  });
  t.equal(res.statusCode, 202);
  t.match(res.json(), {
    state: 'Pending',
    recipients: [
      { phoneNumber: '+15550100010', state: 'Failed', error: /^opted_out: / },
      { phoneNumber: '+15550100011', state: 'Pending' },
    ],
  });

  fillQueue(app.db, app.clock, 1);
  const full = await sg.post('/messages', { message: 'x', phoneNumbers: ['+15550100012', '+15550100013'] });
  t.equal(full.statusCode, 503, 'queue_full: nothing queued');
  t.ok(Number(full.headers['retry-after']) > 0, 'with Retry-After');
  t.same(Object.keys(full.json()), ['message']);

  const notJson = await app.app.inject({
    method: 'POST',
    url: '/messages',
    remoteAddress: '192.168.1.62',
    headers: { authorization: sg.basic, 'content-type': 'text/plain' },
    payload: 'hello',
  });
  t.equal(notJson.statusCode, 415);
  t.same(Object.keys(notJson.json()), ['message']);
});

t.test('SMS switched off: 503 { message }, nothing queued', async (t) => {
  const app = await testApp(t, { runtime: { smsEnabled: false } });
  const res = await smsgateClient(app).post('/messages', { message: 'x', phoneNumbers: ['+15550100014'] });
  t.equal(res.statusCode, 503);
  t.same(Object.keys(res.json()), ['message']);
  t.equal(app.gateway.sending.queue.summary().count, 0);
});
