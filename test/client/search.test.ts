// The exported client (src/client.ts) against the real gateway on a loopback port: messages()
// and inbox() take the search (q, since, until; the times as ISO strings or Dates), queue() and
// send() carry tags that come back in the records.
import t, { type Test } from 'tap';
import { createClient } from '../../src/client.js';
import { appendSimulatedSms, simulatedSmsList } from '../../src/device/simulated-inbox.js';
import { tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 21, 12, 0, 0);

/** The gateway (fake clock at START) listening on 127.0.0.1, and a client of it. */
async function gatewayAndClient(t: Test) {
  const home = tempDir(t);
  const gw = await testApp(t, { home, inbox: true, inboxList: simulatedSmsList(home, () => 'UTC') });
  await gw.app.listen({ port: 0, host: '127.0.0.1' });
  const address = gw.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { gw, client: createClient({ baseUrl: `http://127.0.0.1:${port}`, apiKey: gw.key, maxRetries: 0 }) };
}

t.test('messages(): q, since and until (Dates or ISO strings) search the history; tags come back', async (t) => {
  const { gw, client } = await gatewayAndClient(t);
  const code = await client.send({
    to: '+49 151 1234567',
    message: 'Your garage code is 4711',
    tags: { job: 'garage', n: '1' },
  });
  gw.clock.advance(2 * DAY);
  const [dinner] = await client.queue({
    to: '+15550002',
    message: 'Dinner at 8',
    sendAt: new Date(START + 3 * DAY),
    tags: { family: 'yes' },
  });
  t.same(dinner?.tags, { family: 'yes' }, 'queue(): the tags are in the queued record');

  const byNumber = await client.messages({ q: '+49151' });
  t.same(
    byNumber.data.map((m) => [m.id, m.tags]),
    [[code.messageId, { job: 'garage', n: '1' }]],
    'a number from its start; send() kept the tags',
  );
  t.same(
    (await client.messages({ q: 'DINNER' })).data.map((m) => m.body),
    ['Dinner at 8'],
    'a text, case-insensitively',
  );
  t.same(
    (await client.messages({ since: new Date(START + DAY) })).data.map((m) => m.body),
    ['Dinner at 8'],
    'since as a Date',
  );
  t.same(
    (await client.messages({ until: new Date(START + DAY), status: 'sent' })).data.map((m) => m.body),
    ['Your garage code is 4711'],
    'until as a Date, with the status filter',
  );
  const none = await client.messages({ q: 'garage', since: new Date(START + DAY).toISOString() });
  t.same([none.data.length, none.pagination.total], [0, 0], 'since as an ISO string, combined with q');
  await t.rejects(
    client.messages({ since: new Date(START + DAY), until: new Date(START) }),
    { status: 400, code: 'invalid_request' },
    'the gateway names a bad range',
  );
  await t.rejects(
    client.messages({ since: new Date('not a date') }),
    { name: 'GatewayRequestError', status: 400, code: 'invalid_request', message: /querystring\.since/ },
    "an invalid Date is the gateway's 400 naming since, like any bad time (not a RangeError from toISOString)",
  );
});

t.test('inbox(): q, since and until search the received SMS', async (t) => {
  const { gw, client } = await gatewayAndClient(t);
  gw.gateway.inbox.start();
  await gw.gateway.inbox.watcher.pollOnce();
  appendSimulatedSms(gw.home, { from: '+15550001', body: 'Alarm in the garage' }, START - 3 * DAY);
  appendSimulatedSms(gw.home, { from: '+15550009', body: 'Garage closed again' }, START - DAY);
  appendSimulatedSms(gw.home, { from: '+15550009', body: 'See you' }, START - 1000);
  await gw.gateway.inbox.watcher.pollOnce();
  t.equal((await client.inbox()).pagination.total, 3, 'all three received');
  t.same(
    (await client.inbox({ q: 'garage' })).data.map((m) => m.body),
    ['Garage closed again', 'Alarm in the garage'],
    'a text, newest first',
  );
  t.same(
    (await client.inbox({ q: 'garage', since: new Date(START - 2 * DAY), until: new Date(START) })).data.map(
      (m) => m.body,
    ),
    ['Garage closed again'],
    'with a range of Dates',
  );
  t.same(
    (await client.inbox({ q: '555 0009', from: '+15550009', limit: 1 })).data.map((m) => m.body),
    ['See you'],
    'a number anywhere, with from and limit',
  );
});
