// Received messages and webhook targets end to end, as a laptop user tries them: the real
// gateway in simulated mode (no termux-* on PATH), `simulate receive` putting an SMS into
// the simulated inbox, GET /api/inbox showing it, a webhook registered over the API
// receiving the next event, and that target still there after a real restart.
import t from 'tap';
import { Webhook } from 'standardwebhooks';
import { holdPort8080, simulatedInboxGateway, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { waitFor } from '../helpers/wait.js';
import { startReceiver } from '../fixtures/receiver.js';

t.test('simulated inbox, /api/inbox, a webhook registered over the API, across a restart', async (t) => {
  await holdPort8080(t);
  const rx = await startReceiver(t);
  const { env, cli } = simulatedInboxGateway(t, 1);
  const caller = '127.0.0.9';
  const gw = await startGateway(t, env, caller);
  const key = cli('key', 'show').stdout.trim();
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' };
  const inbox = async () =>
    JSON.parse((await httpGet('/api/inbox', headers, caller)).body) as { data: { body: string; from: string }[] };
  const webhooksCheck = async () =>
    JSON.parse((await httpGet('/api/diagnostics', headers, caller)).body).data.checks.webhooks;

  // The first poll sets the baseline; then a message "arrives".
  await waitFor('the first inbox poll', async () => ((await webhooksCheck()).value.inbox?.lastOk ? true : undefined));
  const put = cli('simulate', 'receive', '--from', '+15551230001', 'Garage door opened');
  t.equal(put.status, 0, put.stderr);
  const first = await waitFor('the message in /api/inbox', async () =>
    (await inbox()).data.length > 0 ? (await inbox()).data : undefined,
  );
  t.match(first, [{ from: '+15551230001', body: 'Garage door opened' }]);
  const check = await webhooksCheck();
  t.equal(check.status, 'ok', 'simulated mode: the inbox check is ok');

  // A webhook registered over the API gets the next event, not the earlier one.
  const added = await httpGet('/api/webhooks', headers, caller, 'POST', JSON.stringify({ url: rx.url }));
  t.equal(added.status, 201, added.body);
  const id = JSON.parse(added.body).data.id;
  t.equal(cli('simulate', 'receive', '--from', '+15551230002', 'Second').status, 0);
  const secret = cli('webhook', 'secret').stdout.trim();
  const wh = new Webhook(secret);
  const event = await waitFor('sms.received at the new target', () =>
    rx.received.length > 0
      ? (wh.verify(rx.received[0]!.body, rx.received[0]!.headers as Record<string, string>) as {
          type: string;
          data: { body: string };
        })
      : undefined,
  );
  t.match(event, { type: 'sms.received', data: { body: 'Second' } });

  // A real restart: the registered target is still there and still gets events.
  gw.proc.kill('SIGTERM');
  t.equal(await gw.exited, 0);
  await startGateway(t, env, caller);
  const list = JSON.parse((await httpGet('/api/webhooks', headers, caller)).body).data;
  t.match(list, [{ id, url: rx.url, source: 'api', disabled: false }]);
  t.equal(cli('simulate', 'receive', '--from', '+15551230003', 'Third').status, 0);
  await waitFor('the event after the restart', () => (rx.received.length >= 2 ? true : undefined));
  t.same(
    rx.received.map((r) => (JSON.parse(r.body) as { data: { body: string } }).data.body),
    ['Second', 'Third'],
    'no event from before the registration, none twice',
  );
  t.same(
    (await inbox()).data.map((m) => m.body),
    ['Third', 'Second', 'Garage door opened'],
  );
});
