// Searching the history and the inbox through the real routes (GET /api/messages and GET
// /api/inbox with q, since and until): a number by prefix or part, a text case-insensitively
// (beyond ASCII), hostile q (LIKE wildcards, quotes, 10 kB, direction marks) matched
// literally or refused, a time range with the status filter and paging, bad values named.
import t, { type Test } from 'tap';
import { fakeTermux } from '../helpers/fake-termux.js';
import { testApp } from '../helpers/test-app.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 21, 12, 0, 0);

/** The history: five messages on day 0, one on day 2, one on day 5 (UTC, the fake clock). */
const SENT: { day: number; to: string; message: string }[] = [
  { day: 0, to: '+49 151 1111111', message: 'Alarm in the garage. Reply 1 to disarm' },
  { day: 0, to: '+1 555 0100', message: '50% off_today' },
  { day: 0, to: '+15550101', message: 'ÄRGER im Büro' },
  { day: 0, to: '0151 2222', message: `it's "quoted" -- '; DROP TABLE messages; --` },
  { day: 0, to: '+1 555 0102', message: 'Pay \u202Eknab\u202C now' },
  { day: 2, to: '+1 555 0100', message: 'Your code is 482913' },
  { day: 5, to: '+49 151 1111111', message: 'garage closed' },
];

async function withHistory(t: Test) {
  const a = await testApp(t);
  for (const m of SENT) {
    const target = START + m.day * DAY;
    if (a.clock.now() < target) a.clock.advance(target - a.clock.now());
    const res = await a.send({ to: m.to, message: m.message });
    t.equal(res.statusCode, 200, m.message);
  }
  /** The texts a GET of the history answers, newest first (asserting a 200). */
  const texts = async (query: string) => {
    const res = await a.get(`/api/messages?limit=100&${query}`);
    t.equal(res.statusCode, 200, query);
    return res.json().data.map((m: { body: string }) => m.body) as string[];
  };
  return { ...a, texts };
}

const iso = (ms: number) => new Date(ms).toISOString();
const enc = encodeURIComponent;

t.test('history q: a number by prefix (leading +) or by part, ignoring spaces and dashes', async (t) => {
  const { texts } = await withHistory(t);
  t.same(
    await texts(`q=${enc('+49151')}`),
    ['garage closed', 'Alarm in the garage. Reply 1 to disarm'],
    '+ anchors at the start',
  );
  t.same(await texts(`q=${enc('+1 555 010')}`), [
    'Your code is 482913',
    'Pay \u202Eknab\u202C now',
    'ÄRGER im Büro',
    '50% off_today',
  ]);
  t.same(await texts(`q=${enc('+5550')}`), [], 'with +, only numbers starting with it');
  t.same(await texts(`q=${enc('555-0101')}`), ['ÄRGER im Büro'], 'without +, any part; dashes ignored');
  t.same(await texts(`q=${enc('(0151) 2222')}`), [`it's "quoted" -- '; DROP TABLE messages; --`]);
  t.same(await texts('q=482913'), ['Your code is 482913'], 'a number-like q also finds a text holding it (a code)');
});

t.test('history q: a text, case-insensitive beyond ASCII, matched literally', async (t) => {
  const { texts, get } = await withHistory(t);
  t.same(await texts('q=GARAGE'), ['garage closed', 'Alarm in the garage. Reply 1 to disarm']);
  t.same(await texts(`q=${enc('ärger im büro')}`), ['ÄRGER im Büro'], 'Ä and ü fold as well');
  t.same(await texts(`q=${enc('%')}`), ['50% off_today'], '% is no wildcard');
  t.same(await texts(`q=${enc('_')}`), ['50% off_today'], '_ is no wildcard');
  t.same(await texts(`q=${enc('0%')}`), ['50% off_today']);
  t.same(await texts(`q=${enc('%%')}`), []);
  t.same(await texts(`q=${enc('\\')}`), [], 'the escape character itself is literal');
  t.same(await texts(`q=${enc(`'; DROP TABLE messages; --`)}`), [`it's "quoted" -- '; DROP TABLE messages; --`]);
  t.same(await texts(`q=${enc('"quoted"')}`), [`it's "quoted" -- '; DROP TABLE messages; --`]);
  t.same(
    await texts(`q=${enc('\u202E')}`),
    ['Pay \u202Eknab\u202C now'],
    'a direction mark is a character like any other',
  );
  t.same(await texts(`q=${enc('pay \u202Eknab')}`), ['Pay \u202Eknab\u202C now']);
  t.same(await texts(`q=${enc('bank')}`), [], 'what the mark makes it look like is not what it says');
  t.same(await texts('q='), await texts(''), 'an empty q searches nothing');
  t.equal((await texts(`q=${enc('   ')}`)).length, SENT.length, 'spaces only: no search');
  const all = (await get('/api/messages?limit=1')).json().pagination.total;
  t.equal(all, SENT.length, 'the table is still there');
});

t.test('history q: a Greek word folds the same at the end of q as inside the text (final sigma)', async (t) => {
  const a = await testApp(t);
  t.equal((await a.send({ to: '+15550101', message: 'ΟΔΟΣΤΡΩΜΑ ready' })).statusCode, 200);
  const texts = async (q: string) =>
    ((await a.get(`/api/messages?q=${enc(q)}`)).json().data as { body: string }[]).map((m) => m.body);
  t.same(await texts('ΟΔΟΣ'), ['ΟΔΟΣΤΡΩΜΑ ready'], 'q as written in the text');
  t.same(await texts('οδος'), ['ΟΔΟΣΤΡΩΜΑ ready'], 'q in lower case, with its final ς');
  t.same(await texts('οδοσ'), ['ΟΔΟΣΤΡΩΜΑ ready']);
});

t.test('history q: a NUL character is a character like any other (it cut the pattern short)', async (t) => {
  const a = await testApp(t);
  for (const message of ['nul\u0000inside', 'ends in l', 'plain text'])
    t.equal((await a.send({ to: '+15550101', message })).statusCode, 200);
  const texts = async (q: string) =>
    ((await a.get(`/api/messages?q=${enc(q)}`)).json().data as { body: string }[]).map((m) => m.body);
  t.same(await texts('\u0000'), ['nul\u0000inside'], 'only the text holding one');
  t.same(await texts('l\u0000i'), ['nul\u0000inside'], 'not every text holding an l');
  t.same(await texts('inside'), ['nul\u0000inside'], 'the text after a NUL is searched too');
  t.same(await texts('x\u0000'), [], 'nothing holds x and a NUL');
});

t.test('history q: too long is 400 naming q; 100 characters are fine', async (t) => {
  const { get, texts } = await withHistory(t);
  for (const q of ['x'.repeat(10_240), 'x'.repeat(101), '\u202E'.repeat(101)]) {
    const res = await get(`/api/messages?q=${enc(q)}`);
    t.equal(res.statusCode, 400, `${q.length} characters`);
    t.same(res.json().error, {
      code: 'invalid_request',
      message: 'Invalid request: querystring.q: must be at most 100 characters',
    });
  }
  t.same(await texts(`q=${'x'.repeat(100)}`), []);
});

t.test('history since/until: the creation time, with status and paging', async (t) => {
  const { texts, get } = await withHistory(t);
  const day0 = SENT.filter((m) => m.day === 0).map((m) => m.message);
  t.same(await texts(`until=${iso(START + DAY)}`), day0.reverse(), 'until is exclusive');
  t.same(await texts(`since=${iso(START + 2 * DAY)}`), ['garage closed', 'Your code is 482913']);
  t.same(
    await texts(`since=${iso(START + DAY)}&until=${enc('2026-11-26T12:00:00+01:00')}`),
    ['Your code is 482913'],
    'an offset is honoured',
  );
  t.same(
    await texts(`since=${iso(START + 5 * DAY + 1000)}`),
    ['garage closed'],
    'since is inclusive (sent at its second)',
  );
  t.same(await texts(`since=${iso(START + DAY)}&until=${iso(START + DAY)}`), [], 'an empty range is no error');
  t.same(await texts(`q=garage&since=${iso(START + DAY)}`), ['garage closed'], 'q and the range together');
  t.same(await texts(`status=sent&q=${enc('+1555')}&until=${iso(START + DAY)}`), [
    'Pay \u202Eknab\u202C now',
    'ÄRGER im Büro',
    '50% off_today',
  ]);
  t.same(await texts(`status=failed&since=${iso(START)}`), []);
  // Paging through a filter: the total is the filter's, offsets walk it without gaps or repeats.
  const seen: string[] = [];
  for (let offset = 0; ; offset += 2) {
    const page = (await get(`/api/messages?limit=2&offset=${offset}&status=sent&until=${iso(START + 3 * DAY)}`)).json();
    t.equal(page.pagination.total, 6, 'the total counts the filtered messages');
    seen.push(...page.data.map((m: { body: string }) => m.body));
    if (!page.pagination.hasNext) break;
  }
  t.same(seen, await texts(`until=${iso(START + 3 * DAY)}`));
  t.equal(seen.length, 6);
});

t.test('history since/until: bad values are 400 invalid_request naming the field', async (t) => {
  const { get } = await withHistory(t);
  const cases: [string, string][] = [
    [
      'since=yesterday',
      'querystring.since: must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-01T00:00:00Z',
    ],
    [
      'until=2026-11-21',
      'querystring.until: must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-01T00:00:00Z',
    ],
    [
      'since=2026-11-21T12:00:00',
      'querystring.since: must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-01T00:00:00Z',
    ],
    [
      'since=2026-02-30T00:00:00Z',
      'querystring.since: must be an ISO 8601 date-time with Z or an offset, e.g. 2026-11-01T00:00:00Z',
    ],
    [`since=${iso(START + DAY)}&until=${iso(START)}`, 'querystring.until: must not be before since'],
    ['since=2026-11-21T12:00:00Z&since=2026-11-22T12:00:00Z', 'querystring.since'],
    ['q=a&q=b', 'querystring.q'],
    // A bare + in a URL is a space: the offset the caller wrote arrives as " 01:00".
    [
      'since=2026-11-21T12:00:00+01:00',
      'querystring.since: must be an ISO 8601 date-time with Z or an offset (in a URL, write its + as %2B), e.g. 2026-11-01T00:00:00Z',
    ],
  ];
  for (const [query, message] of cases) {
    const res = await get(`/api/messages?${query}`);
    t.equal(res.statusCode, 400, query);
    t.equal(res.json().error.code, 'invalid_request', query);
    t.match(res.json().error.message, `Invalid request: ${message}`, query);
  }
});

/** An inbox fed through the watcher from a fake termux-sms-list (UTC times). */
async function withInbox(t: Test) {
  const fake = fakeTermux(t, ['termux-sms-list']);
  const a = await testApp(t, { inbox: true, deviceEnv: fake.env });
  const sms = (id: number, received: string, body: string, address: string, sender?: string) => ({
    _id: id,
    threadid: 3,
    type: 'inbox',
    read: false,
    address,
    ...(sender === undefined ? {} : { sender }),
    received,
    body,
  });
  fake.output('termux-sms-list', '[]');
  await a.gateway.inbox.watcher.pollOnce();
  const list = [
    sms(11, '2026-10-01 08:00:00', 'Ist das Ärger?', '+4915112345678', 'Anna Müller'),
    sms(12, '2026-11-01 09:00:00', '100% sure_thing', '+15551230001'),
    sms(13, '2026-11-20 10:00:00', 'Your parcel is on its way', 'DHL'),
    sms(14, '2026-11-21 11:00:00', 'STOP', '+4915112345678', 'Anna Müller'),
    sms(15, '2026-11-21 11:30:00', 'Mallory says hi', '+1 555 9999', 'Mallory \u202Eknab'),
  ];
  fake.output('termux-sms-list', JSON.stringify(list));
  await a.gateway.inbox.watcher.pollOnce();
  const texts = async (query: string) => {
    const res = await a.get(`/api/inbox?limit=100&${query}`);
    t.equal(res.statusCode, 200, query);
    return res.json().data.map((m: { body: string }) => m.body) as string[];
  };
  return { ...a, texts };
}

t.test('inbox q: the sender, its contact name, the text; since/until on the time received', async (t) => {
  const { texts, get } = await withInbox(t);
  t.same(await texts(`q=${enc('+49151')}`), ['STOP', 'Ist das Ärger?']);
  t.same(await texts(`q=${enc('123-0001')}`), ['100% sure_thing']);
  t.same(await texts(`q=${enc('müller')}`), ['STOP', 'Ist das Ärger?'], 'the contact name, case folded');
  t.same(await texts('q=dhl'), ['Your parcel is on its way'], 'a sender name');
  t.same(await texts(`q=${enc('ärger')}`), ['Ist das Ärger?']);
  t.same(await texts(`q=${enc('%')}`), ['100% sure_thing']);
  t.same(await texts(`q=${enc('_')}`), ['100% sure_thing']);
  t.same(await texts(`q=${enc('\u202E')}`), ['Mallory says hi'], 'a direction mark in a contact name');
  t.same(await texts(`since=2026-11-01T00:00:00Z&until=2026-11-21T00:00:00Z`), [
    'Your parcel is on its way',
    '100% sure_thing',
  ]);
  t.same(await texts(`from=${enc('+4915112345678')}&since=2026-11-01T00:00:00Z`), ['STOP'], 'with from');
  t.same(await texts(`q=sure&until=2026-11-01T00:00:00Z`), []);
  const page = (await get(`/api/inbox?limit=1&q=${enc('+4915112345678')}`)).json();
  t.same(page.pagination, { limit: 1, offset: 0, total: 2, hasNext: true });
  const bad: [string, string][] = [
    [`q=${'x'.repeat(10_240)}`, 'querystring.q: must be at most 100 characters'],
    ['since=now', 'querystring.since: must be an ISO 8601'],
    ['since=2026-11-21T00:00:00Z&until=2026-11-20T00:00:00Z', 'querystring.until: must not be before since'],
  ];
  for (const [query, message] of bad) {
    const res = await get(`/api/inbox?${query}`);
    t.equal(res.statusCode, 400, query.slice(0, 40));
    t.match(res.json().error, { code: 'invalid_request', message: `Invalid request: ${message}` });
  }
});
