// Webhook targets over the API on the real app: add, list, remove, env targets listed but
// not removable, bad URLs, the cap, persistence across a restart (a new composition on the
// same database, as a restart does), events from registration on, and the test event.
import t from 'tap';
import { pino } from 'pino';
import { Webhook } from 'standardwebhooks';
import { fakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';
import { tempDir } from '../helpers/paths.js';
import { startReceiver } from '../fixtures/receiver.js';

type App = Awaited<ReturnType<typeof testApp>>;

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

function api(a: App) {
  const req = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) => {
    a.clock.advance(200); // under the per-caller rate limit
    return a.app.inject({
      method,
      url,
      remoteAddress: '192.168.1.30',
      headers: { ...a.auth, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(payload === undefined ? {} : { payload: typeof payload === 'string' ? payload : JSON.stringify(payload) }),
    });
  };
  return {
    list: () => req('GET', '/api/webhooks'),
    add: (url: unknown) => req('POST', '/api/webhooks', { url }),
    raw: (payload: unknown) => req('POST', '/api/webhooks', payload),
    remove: (id: string) => req('DELETE', `/api/webhooks/${id}`),
    test: () => req('POST', '/api/webhooks/test'),
  };
}

t.test('add, list, remove', async (t) => {
  const a = await testApp(t);
  const w = api(a);
  t.same((await w.list()).json(), { success: true, data: [] });
  const res = await w.add('https://hooks.example.net/sms?token=s3cret');
  t.equal(res.statusCode, 201);
  const target = res.json().data;
  t.same(target, {
    id: target.id,
    url: 'https://hooks.example.net/sms?token=s3cret',
    source: 'api',
    disabled: false,
    createdAt: new Date(a.clock.now()).toISOString(),
  });
  t.match(target.id, /^wh_[0-9a-z]{26}$/);
  t.same((await w.list()).json().data, [target]);

  const again = await w.add('https://hooks.example.net/sms?token=s3cret');
  t.equal(again.statusCode, 200, 'the same URL again: the existing target, not a second one');
  t.same(again.json().data, target);
  t.equal((await w.list()).json().data.length, 1);

  const gone = await w.remove(target.id);
  t.equal(gone.statusCode, 204);
  t.equal(gone.body, '');
  t.same((await w.list()).json().data, []);
  const unknown = await w.remove(target.id);
  t.equal(unknown.statusCode, 404);
  t.equal(unknown.json().error.code, 'not_found');
  const prefix = await w.remove('msg_01');
  t.equal(prefix.statusCode, 400);
  t.equal(prefix.json().error.code, 'invalid_request');
  const long = await w.remove(`wh_${'a'.repeat(200)}`);
  t.equal(long.statusCode, 404, 'an id longer than any the gateway makes is unknown');
  t.equal(
    (await a.app.inject({ method: 'POST', url: '/api/webhooks', remoteAddress: '192.168.1.30' })).statusCode,
    401,
    'needs the key',
  );
});

t.test('SMS_GATEWAY_WEBHOOK_URLS targets are listed with source env and cannot be removed', async (t) => {
  const a = await testApp(t, { webhookUrls: ['http://192.168.1.10:8123/api/webhook/abc'] });
  const w = api(a);
  const [env] = (await w.list()).json().data;
  t.match(env, { id: /^wh_/, url: 'http://192.168.1.10:8123/api/webhook/abc', source: 'env', disabled: false });
  const res = await w.remove(env.id);
  t.equal(res.statusCode, 409);
  t.equal(res.json().error.code, 'webhook_from_environment');
  t.match(res.json().error.message, /SMS_GATEWAY_WEBHOOK_URLS/);
  t.equal((await w.list()).json().data.length, 1, 'still there');
  const same = await w.add('http://192.168.1.10:8123/api/webhook/abc');
  t.equal(same.statusCode, 200, 'registering an env URL answers with the env target');
  t.equal(same.json().data.source, 'env');
});

t.test('bad URLs and bodies are 400 invalid_request; nothing is stored', async (t) => {
  const a = await testApp(t);
  const w = api(a);
  const cases: [unknown, RegExp][] = [
    ['ftp://example.net/x', /http:\/\/ or https:\/\//],
    ['mailto:me@example.net', /http:\/\/ or https:\/\//],
    ['not a url', /spaces/],
    ['example.net/hook', /absolute/],
    ['/relative/hook', /absolute/],
    ['', /empty/],
    ['https://user:pass@example.net/hook', /user:password/],
    ['https://token@example.net/hook', /user:password/],
    [`https://example.net/${'a'.repeat(2048)}`, /2048/],
    ['https://exa mple.net/', /spaces/],
    ['https://example.net/\nx', /control/],
    [42, /body\.url/],
    [null, /body\.url/],
  ];
  for (const [url, message] of cases) {
    const res = await w.add(url);
    t.equal(res.statusCode, 400, String(url).slice(0, 40));
    t.equal(res.json().error.code, 'invalid_request');
    t.match(res.json().error.message, message, String(url).slice(0, 40));
  }
  for (const body of [{}, { url: 'https://example.net/', extra: 1 }, [], 'null', '{"url":']) {
    const res = await w.raw(body);
    t.equal(res.statusCode, 400, JSON.stringify(body));
  }
  t.same((await w.list()).json().data, []);
});

t.test('at most 20 targets over the API, with a clear error', async (t) => {
  const a = await testApp(t, { webhookUrls: ['http://192.168.1.10/env'] });
  const w = api(a);
  for (let i = 0; i < 20; i++) t.equal((await w.add(`http://192.168.1.11/hook/${i}`)).statusCode, 201);
  const res = await w.add('http://192.168.1.11/hook/20');
  t.equal(res.statusCode, 409);
  t.equal(res.json().error.code, 'too_many_webhooks');
  t.match(res.json().error.message, /At most 20 .* remove one first/);
  t.equal((await w.list()).json().data.length, 21, '20 over the API and the env one');
});

t.test('registered targets persist across a restart; env targets follow SMS_GATEWAY_WEBHOOK_URLS', async (t) => {
  const home = tempDir(t);
  let registered: { id: string } | undefined;
  let envId: string | undefined;
  await t.test('first run', async (t) => {
    const a = await testApp(t, { home, webhookUrls: ['http://192.168.1.10/env'] });
    registered = (await api(a).add('http://192.168.1.12/persist')).json().data;
    envId = (await api(a).list()).json().data.find((x: { source: string }) => x.source === 'env').id;
  });
  await t.test('same env: both, with the same ids', async (t) => {
    const a = await testApp(t, { home, webhookUrls: ['http://192.168.1.10/env'] });
    const list = (await api(a).list()).json().data;
    t.same(
      list.map((x: { id: string; source: string }) => [x.id, x.source]),
      [
        [envId, 'env'],
        [registered!.id, 'api'],
      ],
    );
  });
  await t.test('the env URL gone from the configuration: only the registered one', async (t) => {
    const a = await testApp(t, { home });
    t.same(
      (await api(a).list()).json().data.map((x: { id: string }) => x.id),
      [registered!.id],
    );
    t.equal(
      (await a.get('/api/inbox')).statusCode,
      200,
      'a registered target keeps the inbox watcher on after a restart',
    );
  });
});

/** The event types each receiver got, after the gateway delivered everything due. */
async function deliver(a: App) {
  await a.gateway.webhooks.delivery.runDue();
}

t.test('a new target gets the events made from its registration on, signed; a removed one none', async (t) => {
  const early = await startReceiver(t);
  const late = await startReceiver(t);
  const a = await testApp(t, { webhookUrls: [early.url], clock: fakeClock(Date.now()) });
  t.equal((await a.send({ to: '+15551230001', message: 'before' })).statusCode, 200);
  const added = (await api(a).add(late.url)).json().data;
  t.equal((await a.send({ to: '+15551230001', message: 'after' })).statusCode, 200);
  await deliver(a);
  const bodies = (rx: typeof early) => rx.received.map((r) => JSON.parse(r.body).data.body as string);
  t.same(bodies(early), ['before', 'after']);
  t.same(bodies(late), ['after'], 'nothing from before the registration');
  const wh = new Webhook(SECRET);
  t.ok(
    wh.verify(late.received[0]!.body, late.received[0]!.headers as Record<string, string>),
    'signed like every event',
  );

  t.equal((await api(a).remove(added.id)).statusCode, 204);
  t.equal((await a.send({ to: '+15551230001', message: 'removed' })).statusCode, 200);
  await deliver(a);
  t.same(bodies(late), ['after'], 'no event after the removal');
  t.same(bodies(early), ['before', 'after', 'removed']);
});

t.test('removing a target drops its pending events', async (t) => {
  const a = await testApp(t);
  const added = (await api(a).add('http://127.0.0.1:9/unreachable')).json().data;
  t.equal((await a.send({ to: '+15551230001', message: 'pending' })).statusCode, 200);
  const pending = () => (a.db.prepare('SELECT COUNT(*) AS n FROM webhook_deliveries').get() as { n: number }).n;
  t.equal(pending(), 1);
  await api(a).remove(added.id);
  t.equal(pending(), 0);
});

t.test('POST /api/webhooks/test posts the test event to every target and reports each answer', async (t) => {
  const good = await startReceiver(t);
  const bad = await startReceiver(t, () => 500);
  const gone = await startReceiver(t);
  const a = await testApp(t, { webhookUrls: [good.url], webhookTimeoutMs: 2000, clock: fakeClock(Date.now()) });
  const w = api(a);
  const badTarget = (await w.add(bad.url)).json().data;
  const goneTarget = (await w.add(gone.url.replace('/hook', '/gone'))).json().data;
  a.gateway.webhooks.outbox.disable(goneTarget.url, a.clock.now(), 'HTTP 410 Gone: switched off');
  t.equal((await w.list()).json().data.find((x: { id: string }) => x.id === goneTarget.id).disabled, true);

  const res = await w.test();
  t.equal(res.statusCode, 200);
  const results = res.json().data;
  t.equal(results.length, 3);
  t.match(
    results.find((r: { url: string }) => r.url === good.url),
    { source: 'env', delivered: true, status: 200, error: null, switchedBackOn: false },
  );
  t.match(
    results.find((r: { id: string }) => r.id === badTarget.id),
    { source: 'api', delivered: false, status: 500, error: 'HTTP 500', switchedBackOn: false },
  );
  t.match(
    results.find((r: { id: string }) => r.id === goneTarget.id),
    { delivered: true, switchedBackOn: true },
  );
  t.equal(
    (await w.list()).json().data.find((x: { id: string }) => x.id === goneTarget.id).disabled,
    false,
    'switched back on',
  );
  const event = new Webhook(SECRET).verify(
    good.received[0]!.body,
    good.received[0]!.headers as Record<string, string>,
  ) as { type: string };
  t.equal(event.type, 'gateway.test');
  t.equal(bad.received.length, 1, 'no retry of a test event');
  await deliver(a);
  t.equal(bad.received.length, 1, 'the test event is not in the outbox');

  const none = await testApp(t);
  t.same((await api(none).test()).json(), { success: true, data: [] });
});

t.test('logs and diagnostics show a target as scheme, host and port only', async (t) => {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (s: string) => void lines.push(s) });
  const a = await testApp(t, { logger });
  const w = api(a);
  const target = (await w.add('https://hooks.example.net:8443/private/path?token=s3cret')).json().data;
  const diag = (await a.get('/api/diagnostics')).json().data.checks.webhooks.value.targets;
  t.match(diag, [{ url: 'https://hooks.example.net:8443', source: 'api', id: target.id }]);
  await w.remove(target.id);
  const log = lines.join('');
  t.match(log, /webhook target registered/);
  t.match(log, /https:\/\/hooks\.example\.net:8443/);
  t.notMatch(log, /private|s3cret/);
  t.notMatch(JSON.stringify(diag), /private|s3cret/);
});
