// Property tests of the read routes and the guards through the real hooks (app.inject):
// random query strings against GET /api/messages (keys from limit/offset/status/q/since/until
// and others, repeated keys, percent-encoding, '+' for space), random ids against GET
// /api/messages/:id, random methods and paths (every 0.4 route, SMSGate's roots), random Authorization headers,
// and random peer addresses. The history is seeded once with 25 sent and 5 failed messages, so
// every 200 is checked against the page docs/api.md, history and the fourth contract's
// search predict.
import t, { type Test } from 'tap';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { BlockList } from 'node:net';
import { testApp } from '../helpers/test-app.js';
import type { Sender } from '../../src/sms/senders.js';
import {
  anyChar,
  authArb,
  callerAddresses,
  checkEnvelope,
  percentEncode,
  refAuthorized,
  type AuthHeader,
} from './fixtures/support.js';

interface Seeded {
  id: string;
  status: 'sent' | 'failed';
  /** The recipient's digits (no +), the text and the creation time in ms: what a search compares. */
  digits: string;
  text: string;
  createdAt: number;
}

/** An app whose history holds 30 messages (every sixth failed, one second apart), newest first in `seeded`. */
async function seededApp(t: Test) {
  const sender: Sender = {
    async send(h) {
      return h.text.startsWith('FAIL')
        ? { ok: false, reason: 'simulated_failure', detail: 'seeded failure' }
        : { ok: true };
    },
  };
  const ctx = await testApp(t, { sender });
  const seeded: Seeded[] = [];
  for (let i = 0; i < 30; i++) {
    const digits = `1555000${String(i).padStart(4, '0')}`;
    const text = i % 6 === 0 ? `FAIL ${i}` : `seed ${i}`;
    const res = await ctx.send({ to: `+${digits}`, message: text }, {}, '192.168.7.1');
    assert.ok(res.statusCode === 200 || res.statusCode === 502, res.payload);
    const { data } = (await ctx.get(`/api/messages/${res.json().messageId}`)).json();
    seeded.unshift({
      id: data.id,
      status: res.statusCode === 200 ? 'sent' : 'failed',
      digits,
      text,
      createdAt: Date.parse(data.createdAt),
    });
  }
  return { ...ctx, seeded };
}

// ---------------------------------------------------------------------------------------
// GET /api/messages query strings.
const queryKey = fc.oneof(
  { arbitrary: fc.constantFrom('limit', 'offset', 'status'), weight: 8 },
  {
    arbitrary: fc.constantFrom(
      'other',
      'LIMIT',
      'Limit',
      'limit[]',
      'status ',
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'page',
    ),
    weight: 1,
  },
  { arbitrary: fc.string({ unit: anyChar, minLength: 1, maxLength: 5 }), weight: 1 },
);
const queryValue = fc.oneof(
  { arbitrary: fc.integer({ min: -5, max: 130 }).map(String), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 999_999_999 }).map(String), weight: 2 },
  { arbitrary: fc.constantFrom('queued', 'sent', 'failed'), weight: 4 },
  {
    arbitrary: fc.constantFrom(
      'SENT',
      'Sent',
      'delivered',
      '',
      ' ',
      '1.0',
      '+1',
      '0x10',
      '1e1',
      '-0',
      '01',
      '007',
      ' 5',
      '5 ',
      '\u0661\u0662',
      'sent ',
      'null',
    ),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: anyChar, maxLength: 6 }), weight: 1 },
);
/** How a pair is written: percent-encoded where needed, everything encoded, or '+' for spaces. */
const encoding = fc.constantFrom('min', 'all', 'plus');
const encode = (s: string, how: string) =>
  how === 'all' ? percentEncode(s, true) : how === 'plus' ? percentEncode(s).replaceAll('%20', '+') : percentEncode(s);

/** q: words and numbers of the seeded history in several writings, LIKE's wildcards, and too long. */
const qValue = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      ...[
        '',
        ' ',
        'seed',
        'SEED',
        ' seed 1 ',
        'seed 1',
        'fail',
        'FAIL 1',
        'eed',
        'seed 10',
        '1',
        '12',
        '0001',
        '000 00',
        '(555) 000-0001',
      ],
      ...[
        '1555',
        '+1555',
        '+ 1 555',
        '+555',
        '555.000.0002',
        '15550000029',
        '+15550000030',
        '%',
        '_',
        'seed_1',
        's%d',
        '\\',
        'SENT',
        '-',
        '()',
        '+',
      ],
      ...['x'.repeat(100), 'x'.repeat(101), `seed ${' '.repeat(95)}`],
    ),
    weight: 4,
  },
  { arbitrary: fc.string({ unit: anyChar, maxLength: 6 }), weight: 1 },
);

/** since and until: date-times at, just before and just after seeded times (Z and an offset), and near-misses. */
function timeValues(seeded: readonly Seeded[]): Map<string, number | undefined> {
  const values = new Map<string, number | undefined>();
  const withOffset = (ms: number) => new Date(ms + 2 * 3600_000).toISOString().replace('Z', '+02:00');
  for (const m of [seeded[0]!, seeded[7]!, seeded[29]!]) {
    for (const ms of [m.createdAt - 1000, m.createdAt - 1, m.createdAt, m.createdAt + 1]) {
      values.set(new Date(ms).toISOString(), ms);
      values.set(withOffset(ms), ms);
    }
  }
  values.set('2000-01-01T00:00:00Z', Date.UTC(2000, 0, 1));
  values.set('2999-01-01T00:00:00Z', Date.UTC(2999, 0, 1));
  for (const wrong of [
    '',
    'now',
    '2026-11-01',
    '2026-11-01T00:00:00',
    '2026-11-01T00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-11-01T00:00:00+0200',
    '1793491200000',
  ]) {
    values.set(wrong, undefined);
  }
  return values;
}

/** Query strings: random pairs, and pairs of the search (q, since, until) with values worth asking. */
function queryOf(times: ReadonlyMap<string, number | undefined>) {
  const pair = fc.oneof(
    { arbitrary: fc.tuple(queryKey, queryValue), weight: 6 },
    { arbitrary: fc.tuple(fc.constant('q'), qValue), weight: 2 },
    { arbitrary: fc.tuple(fc.constantFrom('since', 'until'), fc.constantFrom(...times.keys())), weight: 2 },
  );
  return fc.array(fc.tuple(pair, encoding), { maxLength: 4 }).map((pairs) => ({
    pairs: pairs.map(([[k, v]]) => [k.toWellFormed(), v.toWellFormed()] as const),
    text: pairs.map(([[k, v], how]) => `${encode(k, how)}=${encode(v, how)}`).join('&'),
  }));
}

type Query = { pairs: (readonly [string, string])[]; text: string };
/** A query of the given pairs, each percent-encoded. */
const one = (pairs: [string, string][]): Query => ({
  pairs,
  text: pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'),
});

interface Search {
  q?: string;
  since?: number;
  until?: number;
}
type Page =
  { status: 200; limit: number; offset: number; filter: string | undefined; search: Search } | { status: 400 };

const NUMBER_LIKE = /^\+?[\d\s\-.()]+$/;

/**
 * docs/api.md, history: limit 1..100 (20), offset 0 or more (0), status queued|sent|failed;
 * the fourth contract's search: q at most 100 characters, since and until ISO 8601 date-times
 * with Z or an offset, until not before since; anything else 400.
 */
function expectPage(
  pairs: readonly (readonly [string, string])[],
  times: ReadonlyMap<string, number | undefined>,
): Page {
  const seen = new Map<string, string[]>();
  for (const [k, v] of pairs) seen.set(k, [...(seen.get(k) ?? []), v]);
  let limit = 20;
  let offset = 0;
  let filter: string | undefined;
  const search: Search = {};
  for (const [k, vs] of seen) {
    if (vs.length !== 1) return { status: 400 };
    const v = vs[0]!;
    if (k === 'limit') {
      if (!/^[0-9]+$/.test(v) || Number(v) < 1 || Number(v) > 100) return { status: 400 };
      limit = Number(v);
    } else if (k === 'offset') {
      if (!/^[0-9]+$/.test(v)) return { status: 400 };
      offset = Number(v);
    } else if (k === 'status') {
      if (!['queued', 'sent', 'failed'].includes(v)) return { status: 400 };
      filter = v;
    } else if (k === 'q') {
      if (v.length > 100) return { status: 400 };
      search.q = v;
    } else if (k === 'since' || k === 'until') {
      const ms = times.get(v);
      if (ms === undefined) return { status: 400 };
      search[k] = ms;
    } else return { status: 400 };
  }
  if (search.since !== undefined && search.until !== undefined && search.since > search.until) return { status: 400 };
  return { status: 200, limit, offset, filter, search };
}

/** The search as the interface describes q: a number-like q matches the recipient's digits (from the start after +) or the text; any other q a case-insensitive part of the text. */
function matches(m: Seeded, { q, since, until }: Search): boolean {
  if (since !== undefined && m.createdAt < since) return false;
  if (until !== undefined && m.createdAt >= until) return false;
  const term = (q ?? '').trim();
  if (term === '') return true;
  const inText = m.text.toLowerCase().includes(term.toLowerCase());
  const digits = term.replace(/[\s\-.()+]/g, '');
  if (!NUMBER_LIKE.test(term) || digits === '') return inText;
  return (term.startsWith('+') ? m.digits.startsWith(digits) : m.digits.includes(digits)) || inText;
}

interface PageBody {
  success: boolean;
  pagination: unknown;
  data: Seeded[];
}

function checkPage(res: { json(): unknown }, expected: Extract<Page, { status: 200 }>, seeded: Seeded[]) {
  const body = res.json() as PageBody;
  const matching = seeded.filter(
    (m) => (expected.filter === undefined || m.status === expected.filter) && matches(m, expected.search),
  );
  const page = matching.slice(expected.offset, expected.offset + expected.limit);
  assert.deepEqual(Object.keys(body).sort(), ['data', 'pagination', 'success']);
  assert.equal(body.success, true);
  assert.deepEqual(body.pagination, {
    limit: expected.limit,
    offset: expected.offset,
    total: matching.length,
    hasNext: expected.offset + page.length < matching.length,
  });
  assert.deepEqual(
    body.data.map((m: Seeded) => ({ id: m.id, status: m.status })),
    page.map((m) => ({ id: m.id, status: m.status })),
    'the page of the history, newest first',
  );
  return matching.length;
}

t.test('GET /api/messages: random query strings get the page or 400 invalid_request', async (t) => {
  const { app, auth, seeded } = await seededApp(t);
  const caller = callerAddresses();
  const times = timeValues(seeded);
  const seen = { ok: 0, bad: 0, searched: 0, found: 0 };
  /** The eighth newest message's time, plus ms. */
  const at = (ms: number) => new Date(seeded[7]!.createdAt + ms).toISOString();
  await fc.assert(
    fc.asyncProperty(queryOf(times), fc.boolean(), async ({ pairs, text }, mark) => {
      const url = `/api/messages${text || mark ? '?' : ''}${text}`;
      const res = await app.inject({ url, remoteAddress: caller(), headers: auth });
      const code = checkEnvelope(res);
      const expected = expectPage(pairs, times);
      assert.equal(res.statusCode, expected.status, `${url} -> ${res.payload.slice(0, 300)}`);
      if (expected.status === 200) {
        seen.ok++;
        const found = checkPage(res, expected, seeded);
        if (Object.keys(expected.search).length > 0) {
          seen.searched++;
          if (found > 0 && found < seeded.length) seen.found++;
        }
      } else {
        seen.bad++;
        assert.equal(code, 'invalid_request');
      }
    }),
    {
      numRuns: 600,
      // The edges of the search, always tried: q's length limit, + anchoring the number, since and until at a message's time.
      examples: [
        ...['x'.repeat(100), 'x'.repeat(101), '+555', '555', '+1555000 0007', 'SEED 2', 'seed_1'].map(
          (q) => [one([['q', q]]), false] as [Query, boolean],
        ),
        ...[
          [['since', at(0)]],
          [['until', at(0)]],
          [
            ['since', at(0)],
            ['until', at(0)],
          ],
          [
            ['since', at(1)],
            ['until', at(0)],
          ],
        ].map((pairs) => [one(pairs as [string, string][]), false] as [Query, boolean]),
      ],
    },
  );
  t.ok(seen.ok > 50 && seen.bad > 50 && seen.found > 5, `every outcome met (${JSON.stringify(seen)})`);
});

t.test('GET /api/messages: any offset of 0 or more is a page (empty past the end)', async (t) => {
  const { app, auth, seeded } = await seededApp(t);
  const caller = callerAddresses();
  await fc.assert(
    fc.asyncProperty(fc.bigInt({ min: 0n, max: 10n ** 15n }), async (offset) => {
      const res = await app.inject({ url: `/api/messages?offset=${offset}`, remoteAddress: caller(), headers: auth });
      checkEnvelope(res);
      assert.equal(res.statusCode, 200, res.payload);
      checkPage(res, { status: 200, limit: 20, offset: Number(offset), filter: undefined, search: {} }, seeded);
    }),
    { numRuns: 100 },
  );
});

// ---------------------------------------------------------------------------------------
// GET /api/messages/:id
const idSegment = (ids: string[]) =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...ids), weight: 3 },
    {
      arbitrary: fc
        .tuple(
          fc.constantFrom(...ids),
          fc.constantFrom('upper', 'suffix', 'prefix', 'chop'),
          fc.string({ unit: anyChar, minLength: 1, maxLength: 3 }),
        )
        .map(([id, how, s]) =>
          how === 'upper' ? id.toUpperCase() : how === 'suffix' ? id + s : how === 'prefix' ? s + id : id.slice(0, -1),
        ),
      weight: 2,
    },
    { arbitrary: fc.string({ unit: anyChar, maxLength: 26 }).map((s) => `msg_${s}`), weight: 2 },
    { arbitrary: fc.string({ unit: anyChar, maxLength: 20 }), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        '',
        'msg_',
        'MSG_x',
        'msg',
        '%',
        'msg_%',
        'msg_/x',
        'msg_?x',
        'msg_#x',
        'msg_ ',
        ' msg_x',
      ),
      weight: 1,
    },
  );

t.test('GET /api/messages/:id: known id 200, unknown msg_ id 404, anything else 400', async (t) => {
  const { app, auth, seeded } = await seededApp(t);
  const caller = callerAddresses();
  const byId = new Map(seeded.map((m) => [m.id, m]));
  const seen = new Map<number, number>();
  const arb = fc
    .tuple(idSegment(seeded.map((m) => m.id)), fc.boolean())
    .map(([id, all]) => ({ id: id.toWellFormed(), segment: percentEncode(id, all) }))
    // '.' and '..' are dot segments any URL parser removes; past 100 characters see the todo test
    .filter(({ id, segment }) => id !== '.' && id !== '..' && segment.length <= 100);
  await fc.assert(
    fc.asyncProperty(arb, async ({ id, segment }) => {
      const url = `/api/messages/${segment}`;
      const res = await app.inject({ url, remoteAddress: caller(), headers: auth });
      const code = checkEnvelope(res);
      seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
      const known = byId.get(id);
      if (!id.startsWith('msg_')) {
        assert.equal(res.statusCode, 400, `${url}: ${res.payload}`);
        assert.equal(code, 'invalid_request');
      } else if (!known) {
        assert.equal(res.statusCode, 404, `${url}: ${res.payload}`);
        assert.equal(code, 'not_found');
      } else {
        assert.equal(res.statusCode, 200, `${url}: ${res.payload}`);
        const body = res.json();
        assert.equal(body.success, true);
        assert.equal(body.data.id, id);
        assert.equal(body.data.status, known.status);
      }
    }),
    { numRuns: 400 },
  );
  t.ok(
    seen.get(200) && seen.get(400) && seen.get(404),
    `every outcome met: ${JSON.stringify(Object.fromEntries(seen))}`,
  );
});

t.test('GET /api/messages/:id: an unknown msg_ id of any length is 404 not_found', async (t) => {
  const { app, auth } = await seededApp(t);
  const caller = callerAddresses();
  await fc.assert(
    fc.asyncProperty(
      fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789'), minLength: 60, maxLength: 300 }),
      async (tail) => {
        const res = await app.inject({ url: `/api/messages/msg_${tail}`, remoteAddress: caller(), headers: auth });
        const code = checkEnvelope(res);
        assert.equal(res.statusCode, 404, `msg_${tail} (${tail.length + 4} chars): ${res.payload}`);
        assert.equal(code, 'not_found');
      },
    ),
    { numRuns: 100 },
  );
});

// ---------------------------------------------------------------------------------------
// Any method, any path, any Authorization header.
const METHODS = [
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'PATCH',
  'OPTIONS',
  'PROPFIND',
  'SEARCH',
  'TRACE',
  'LOCK',
  'CONNECT',
];
const pathSegment = fc
  .oneof(
    {
      arbitrary: fc.constantFrom(
        ...[
          'api',
          'messages',
          'sms',
          'send',
          'health',
          'stats',
          'host',
          'info',
          'diagnostics',
          'openapi.json',
          'API',
          'Health',
          '',
        ],
        ...['inbox', 'webhooks', 'opt-outs', 'rules', 'receivers', 'grafana', 'metrics', 'daily'],
        ...['message', 'webhook', 'settings', 'devices', 'device', 'logs', 'refresh', 'export'],
      ),
      weight: 3,
    },
    { arbitrary: fc.string({ unit: anyChar, minLength: 1, maxLength: 8 }), weight: 1 },
  )
  .map((s) => s.toWellFormed())
  .filter((s) => s !== '.' && s !== '..');
const KNOWN_PATHS = [
  ['health'],
  ['openapi.json'],
  ['api', 'host', 'info'],
  ['api', 'diagnostics'],
  ['api', 'messages'],
  ['api', 'stats'],
  ['api', 'sms', 'send'],
  ['api', 'messages', 'msg_x'],
  ['metrics'],
  ['api', 'stats', 'daily'],
  ['api', 'inbox'],
  ['api', 'webhooks'],
  ['api', 'opt-outs'],
  ['api', 'opt-outs', '+15550001'],
  ['api', 'rules'],
  ['api', 'rules', 'rule_x'],
  ['api', 'receivers', 'alertmanager'],
  ['api', 'receivers', 'grafana'],
  ['messages'],
  ['messages', 'x'],
  ['webhooks'],
  ['settings'],
  ['devices'],
  ['inbox', 'refresh'],
  ['logs'],
];
const path = fc
  .tuple(
    fc.oneof(
      { arbitrary: fc.constantFrom(...KNOWN_PATHS), weight: 1 },
      {
        arbitrary: fc
          .tuple(fc.constantFrom<string[]>([], ['api']), fc.array(pathSegment, { maxLength: 3 }))
          .map(([h, r]) => [...h, ...r]),
        weight: 3,
      },
    ),
    fc.boolean(),
  )
  .map(([decoded, all]) => {
    return { decoded, url: `/${decoded.map((s) => percentEncode(s, all)).join('/')}` };
  });

/** The first path segments of SMSGate's routes at the root (http/smsgate/), both spellings. */
const SMSGATE_ROOTS = ['messages', 'message', 'webhooks', 'webhook', 'settings', 'inbox', 'devices', 'device', 'logs'];

/**
 * The routes of the app (0.4), on decoded path segments: 'public', 'protected' or null (no
 * route); 'smsgate' for a path under one of SMSGate's roots (a route of its dialect or none).
 */
function route(method: string, segs: string[]): 'public' | 'protected' | 'smsgate' | null {
  const get = method === 'GET' || method === 'HEAD';
  const p = segs.join('\u0000');
  if (get && p === 'health') return 'public';
  // The console's page and files (http/routes/console.ts): public like /health.
  if (get && (segs.length === 0 || p === '' || p === 'console\u0000app.js' || p === 'console\u0000app.css'))
    return 'public';
  const reads = [
    'openapi.json',
    'metrics',
    'api/host/info',
    'api/diagnostics',
    'api/messages',
    'api/stats',
    'api/stats/daily',
    'api/inbox',
  ];
  if (
    get &&
    [...reads, 'api/webhooks', 'api/opt-outs', 'api/rules'].map((r) => r.replaceAll('/', '\u0000')).includes(p)
  )
    return 'protected';
  const posts = [
    'api/key/rotate',
    'api/sms/send',
    'api/messages',
    'api/webhooks',
    'api/webhooks/test',
    'api/opt-outs',
    'api/rules',
  ];
  const receivers = ['api/receivers/alertmanager', 'api/receivers/grafana'];
  if (method === 'POST' && [...posts, ...receivers].map((r) => r.replaceAll('/', '\u0000')).includes(p))
    return 'protected';
  const byId = segs.length === 3 && segs[0] === 'api';
  if (get && byId && segs[1] === 'messages') return 'protected';
  if (method === 'DELETE' && byId && ['messages', 'webhooks', 'opt-outs', 'rules'].includes(segs[1]!))
    return 'protected';
  if (SMSGATE_ROOTS.includes(segs[0] ?? '')) return 'smsgate';
  return null;
}

/**
 * An answer under SMSGate's roots: never a 5xx but 503; without the key 401 (the dialect's own or the
 * guard's), with it never 401; an error is SMSGate's { message } or, where no route matched,
 * the native envelope (checkEnvelope).
 */
function checkSmsgateAnswer(res: Parameters<typeof checkEnvelope>[0], method: string, authorized: boolean) {
  const what = `${res.statusCode} ${res.payload.slice(0, 200)}`;
  // 503: the test app reads no inbox, so GET /inbox and POST /inbox/refresh are 503 here.
  assert.ok(res.statusCode >= 200 && (res.statusCode < 500 || res.statusCode === 503), `unexpected status: ${what}`);
  if (authorized) assert.notEqual(res.statusCode, 401, what);
  else assert.equal(res.statusCode, 401, what);
  if (res.statusCode < 300 || method === 'HEAD') return;
  const body = JSON.parse(res.payload) as Record<string, unknown>;
  if (typeof body.message === 'string') assert.deepEqual(Object.keys(body), ['message'], what);
  else checkEnvelope(res, method);
}

t.test('any method, path and Authorization: 401 before 404, 404 not_found for no route', async (t) => {
  const { app, key } = await testApp(t);
  const caller = callerAddresses();
  const auth: fc.Arbitrary<(key: string) => AuthHeader> = fc.oneof(
    { arbitrary: fc.constant((k: string): AuthHeader => `Bearer ${k}`), weight: 3 },
    { arbitrary: authArb, weight: 2 },
  );
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...METHODS), path, auth, async (method, { decoded, url }, authFor) => {
      const authorization = authFor(key);
      const headers: Record<string, string | string[]> = {};
      if (authorization !== undefined) headers.authorization = authorization;
      const res = await app.inject({ method: method as 'GET', url, remoteAddress: caller(), headers });
      const kind = route(method, decoded);
      const tag = `${method} ${url} (${JSON.stringify(authorization)}) -> ${res.statusCode} ${res.payload.slice(0, 200)}`;
      seen.set(`${kind} ${res.statusCode}`, (seen.get(`${kind} ${res.statusCode}`) ?? 0) + 1);
      // GET / and /health with a Basic credential answer SMSGate's form, and so does a path no route
      // takes (an SMSGate client's): here never the key (no base64 user:key is drawn), so SMSGate's 401.
      const basic = typeof authorization === 'string' && /^basic\b/i.test(authorization);
      const basicForm = (kind === 'public' || kind === null) && basic;
      if (kind === 'smsgate' || basicForm) {
        return checkSmsgateAnswer(res, method, !basicForm && refAuthorized(authorization, key));
      }
      const code = checkEnvelope(res, method);
      if (kind === 'public') {
        assert.equal(res.statusCode, 200, tag);
      } else if (!refAuthorized(authorization, key)) {
        assert.equal(res.statusCode, 401, tag);
      } else if (kind === null) {
        assert.equal(res.statusCode, 404, tag);
        if (method !== 'HEAD') assert.equal(code, 'not_found', tag);
      } else {
        assert.notEqual(res.statusCode, 401, tag);
        // The test app reads no inbox (no webhook target, SMS_GATEWAY_INBOX unset): 503 inbox_disabled.
        const inbox = decoded.join('/') === 'api/inbox';
        if ((method === 'GET' || method === 'HEAD') && decoded.length !== 3)
          assert.equal(res.statusCode, inbox ? 503 : 200, tag);
        if (inbox && method === 'GET') assert.equal(code, 'inbox_disabled', tag);
      }
    }),
    {
      numRuns: 600,
      // The one public route, always tried (random paths meet it only now and then).
      examples: [
        ['GET', { decoded: ['health'], url: '/health' }, () => undefined],
        ['HEAD', { decoded: ['health'], url: '/health' }, (k: string): AuthHeader => `Bearer ${k}`],
      ],
    },
  );
  t.comment(JSON.stringify(Object.fromEntries(seen)));
  for (const k of ['null 404', 'null 401', 'protected 200', 'protected 401', 'public 200'])
    t.ok(seen.has(k), `met ${k}`);
});

// ---------------------------------------------------------------------------------------
// The local-network guard, judged by node:net's BlockList (not the ipaddr.js the gateway uses).
const local = new BlockList();
for (const [net, bits] of [
  ['127.0.0.0', 8],
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
] as const) {
  local.addSubnet(net, bits, 'ipv4');
}
local.addAddress('::1', 'ipv6');
local.addSubnet('fc00::', 7, 'ipv6');
local.addSubnet('fe80::', 10, 'ipv6');

t.test('local-network guard: 403 exactly for callers outside the allowed ranges, before the key', async (t) => {
  const { app, key } = await testApp(t);
  const address = fc.oneof(
    fc.ipV4().map((a) => ({ a, v: 'ipv4' as const })),
    fc.ipV4().map((a) => ({ a: `::ffff:${a}`, v: 'ipv6' as const })),
    fc
      .ipV6()
      .filter((a) => !a.includes('.'))
      .map((a) => ({ a, v: 'ipv6' as const })),
    fc
      .tuple(
        fc.constantFrom('10', '172.16', '172.31', '192.168', '100.64', '100.127', '169.254', '127'),
        fc.array(fc.nat({ max: 255 }), { minLength: 3, maxLength: 3 }),
      )
      .map(([p, rest]) => ({ a: [...p.split('.'), ...rest].slice(0, 4).join('.'), v: 'ipv4' as const })),
    fc
      .constantFrom(
        '172.15.255.255',
        '172.32.0.0',
        '100.63.255.255',
        '100.128.0.0',
        '0.0.0.0',
        '::',
        'fe7f::1',
        'fec0::1',
        '::2',
      )
      .map((a) => ({ a, v: a.includes(':') ? ('ipv6' as const) : ('ipv4' as const) })),
  );
  const seen = { allowed: 0, forbidden: 0 };
  await fc.assert(
    fc.asyncProperty(
      address,
      fc.constantFrom('/health', '/api/messages', '/nope'),
      fc.boolean(),
      async ({ a, v }, url, withKey) => {
        const res = await app.inject({
          url,
          remoteAddress: a,
          headers: withKey ? { authorization: `Bearer ${key}` } : {},
        });
        checkEnvelope(res);
        if (local.check(a, v)) {
          seen.allowed++;
          assert.notEqual(res.statusCode, 403, `${a}: ${res.payload}`);
        } else {
          seen.forbidden++;
          assert.equal(res.statusCode, 403, `${a}: ${res.statusCode} ${res.payload}`);
        }
      },
    ),
    { numRuns: 400 },
  );
  t.ok(seen.allowed > 50 && seen.forbidden > 50, JSON.stringify(seen));
});
