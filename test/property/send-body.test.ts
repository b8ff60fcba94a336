// Property tests of POST /api/sms/send through the real hooks (app.inject): random JSON
// text of every kind as the body (deep nesting, lone surrogates as \u escapes, huge and
// tiny number literals, the 16 KB edge), random content types and Authorization headers.
// Oracles: the envelope of docs/api.md, errors, and the recording sender
// is handed a message only for a 200, exactly once. A second property builds near-valid
// bodies whose outcome is fully predicted from docs/sending.md, recipient, "Segments and
// encoding", 16 KB), by an independent reference.
import t from 'tap';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { testApp } from '../helpers/test-app.js';
import { MESSAGE_ID_PATTERN } from '../../src/core/ids.js';
import {
  anyChar,
  authArb,
  type AuthHeader,
  callerAddresses,
  checkEnvelope,
  gsmBasicChar,
  gsmExtChar,
  jsonEscapeAll,
  nonGsmBmpChar,
  refAuthorized,
  refHasVisible,
  refNormalize,
  refSplit,
  validTo,
  wellFormedChar,
} from './fixtures/support.js';
import { BODY_LIMIT } from '../../src/http/errors.js';

// ---------------------------------------------------------------------------------------
// JSON text, built as text so that number literals JavaScript cannot hold (1e400, 1e-400,
// 2^53 + 1) and escaped lone surrogates reach the parser as a client would send them.
const numberLiteral = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '1e-400',
    '-0',
    '0.0',
    '1.0',
    '2.00',
    '1E0',
    '9007199254740993',
    '4.9e-324',
    '1.7976931348623157e308',
    '0.1e1',
  ),
);
const stringLiteral = fc
  .tuple(
    fc.oneof(
      fc.string({ unit: 'binary', maxLength: 30 }),
      fc.string({ unit: anyChar, maxLength: 30 }),
      fc.constantFrom('', ' ', '\u0000', '\ud800', '\udc00x', '123', '+1 555', 'msg_x', '__proto__'),
    ),
    fc.boolean(),
  )
  .map(([s, all]) => (all ? jsonEscapeAll(s) : JSON.stringify(s)));
const keyLiteral = fc.oneof(
  fc
    .constantFrom('to', 'message', 'simSlot', '__proto__', 'constructor', 'prototype', '')
    .map((k) => JSON.stringify(k)),
  stringLiteral,
);
const ws = fc.constantFrom('', '', '', ' ', '\n', '\t ', '\r\n');
const { jsonText } = fc.letrec<{ jsonText: string; array: string; object: string }>((tie) => ({
  jsonText: fc.oneof(
    { depthSize: 'small' },
    numberLiteral,
    stringLiteral,
    fc.constantFrom('true', 'false', 'null'),
    tie('array'),
    tie('object'),
  ),
  array: fc.array(tie('jsonText'), { maxLength: 5 }).map((xs) => `[${xs.join(',')}]`),
  object: fc
    .array(fc.tuple(keyLiteral, ws, tie('jsonText')), { maxLength: 5 })
    .map((kv) => `{${kv.map(([k, w, v]) => `${k}${w}:${w}${v}`).join(',')}}`),
}));

/** Nesting deep enough to hurt a recursive walker, within and beyond 16 KB. */
const deepText = fc
  .tuple(fc.integer({ min: 100, max: 9000 }), fc.constantFrom('[', '{"a":', '{"__proto__":', '{"to":'), fc.boolean())
  .map(([n, open, wrap]) => {
    const close = open === '[' ? ']' : '}';
    const inner = open.repeat(n) + (open === '[' ? '' : '1') + close.repeat(n);
    return wrap ? `{"to":"123","message":${inner}}` : inner;
  });

/** Not JSON at all, or truncated JSON. */
const garbageText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  jsonText.chain((s) => fc.nat({ max: s.length }).map((n) => s.slice(0, n))),
  fc.constantFrom('', ' ', '{', '{"to":', 'nul', '\ufeff{}', '{"to":"123","message":"x"}x', "{'to':'123'}"),
);

// ---------------------------------------------------------------------------------------
// Near-valid bodies: each field valid or not, with the expected outcome computed here.
interface Field {
  text: string | undefined; // the JSON text of the value; undefined = key absent
  value?: unknown;
}
const present = (text: string): Field => ({ text, value: JSON.parse(text) });

const toField: fc.Arbitrary<Field> = fc.oneof(
  { arbitrary: validTo(2).map(({ to }) => present(JSON.stringify(to))), weight: 16 },
  { arbitrary: fc.string({ unit: anyChar, maxLength: 20 }).map((s) => present(JSON.stringify(s))), weight: 1 },
  {
    arbitrary: fc
      .constantFrom('12', '+12', '1234567890123456', '123,456', '123;456', '12\t34', '١٢٣٤', '+1+23', 'abc')
      .map((s) => present(JSON.stringify(s))),
    weight: 1,
  },
  {
    arbitrary: fc.oneof(numberLiteral, fc.constantFrom('null', 'true', '[]', '{}', '["123"]')).map(present),
    weight: 1,
  },
  { arbitrary: fc.constant<Field>({ text: undefined }), weight: 1 },
);

const whitespace = fc.constantFrom(' ', '\n', '\t', '\r', '\u00a0', '\u2028', '\ufeff', '\u3000', '\f', '\v');
/** Runs of one character near 60 segments (the most the budget can take) and near 16 KB. */
const longMessage = fc
  .tuple(
    fc.constantFrom<[string, number]>(['a', 153], ['€', 76.5], ['д', 67], ['😀', 33.5], ['Ç', 153]),
    fc.constantFrom(59, 60, 61, 100),
    fc.integer({ min: -2, max: 2 }),
  )
  .map(([[c, perPart], parts, d]) => c.repeat(Math.max(1, Math.floor(perPart * parts) + d)));
const messageField: fc.Arbitrary<Field> = fc.oneof(
  {
    arbitrary: fc.string({ unit: wellFormedChar, minLength: 1, maxLength: 200 }).map((s) => present(JSON.stringify(s))),
    weight: 10,
  },
  {
    arbitrary: fc.string({ unit: anyChar, minLength: 1, maxLength: 50 }).map((s) => present(JSON.stringify(s))),
    weight: 2,
  },
  { arbitrary: fc.string({ unit: whitespace, maxLength: 4 }).map((s) => present(JSON.stringify(s))), weight: 1 },
  { arbitrary: longMessage.map((s) => present(JSON.stringify(s))), weight: 2 },
  {
    arbitrary: fc.oneof(numberLiteral, fc.constantFrom('null', 'false', '["hi"]', '{"text":"hi"}')).map(present),
    weight: 1,
  },
  { arbitrary: fc.constant<Field>({ text: undefined }), weight: 1 },
);
const simSlotField: fc.Arbitrary<Field> = fc.oneof(
  { arbitrary: fc.constant<Field>({ text: undefined }), weight: 6 },
  {
    arbitrary: fc
      .constantFrom(
        '1',
        '2',
        '1.0',
        '2e0',
        '1E0',
        '0',
        '3',
        '8',
        '9',
        '-1',
        '1.5',
        '1e400',
        '-0',
        '"1"',
        'null',
        'true',
        '[1]',
        '0.1e1',
      )
      .map(present),
    weight: 3,
  },
);
const extraField = fc.oneof(
  { arbitrary: fc.constant(null), weight: 6 },
  {
    arbitrary: fc.tuple(
      fc.constantFrom('extra', 'TO', 'Message', 'message ', 'sim_slot', '__proto__', 'constructor'),
      jsonText,
    ),
    weight: 1,
  },
);

interface Expected {
  /** Error codes any of which is a correct answer; empty = 200. */
  codes: Set<string>;
  status: number;
  number?: string;
  message?: string;
  simSlot?: number;
}

function expectNearValid(to: Field, message: Field, simSlot: Field, extra: boolean, bytes: number): Expected {
  if (bytes > BODY_LIMIT) return { codes: new Set(['payload_too_large']), status: 413 };
  const codes = new Set<string>();
  const invalid = () => codes.add('invalid_request');
  if (extra) invalid();
  if (typeof to.value !== 'string') invalid();
  else if (refNormalize(to.value) === null) invalid();
  let slot = 1;
  if (simSlot.text !== undefined) {
    const v = simSlot.value;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 2) invalid();
    else slot = v;
  }
  if (typeof message.value !== 'string') invalid();
  else {
    const m = message.value;
    // No visible character (whitespace, controls, format characters, lone marks) or broken UTF-16.
    if (!refHasVisible(m) || !m.isWellFormed()) invalid();
    else if (refSplit(m).parts.length > 60) codes.add('message_too_long');
  }
  if (codes.size > 0) return { codes, status: 400 };
  return {
    codes,
    status: 200,
    number: refNormalize(to.value as string)!,
    message: message.value as string,
    simSlot: slot,
  };
}

const nearValid = fc
  .tuple(toField, messageField, simSlotField, extraField, fc.boolean(), ws)
  .map(([to, message, simSlot, extra, reversed, w]) => {
    const entries: string[] = [];
    if (to.text !== undefined) entries.push(`"to":${w}${to.text}`);
    if (message.text !== undefined) entries.push(`"message":${w}${message.text}`);
    if (simSlot.text !== undefined) entries.push(`"simSlot":${w}${simSlot.text}`);
    if (extra) entries.push(`${JSON.stringify(extra[0])}:${extra[1]}`);
    if (reversed) entries.reverse();
    const text = `{${w}${entries.join(`,${w}`)}${w}}`;
    return { text, expected: expectNearValid(to, message, simSlot, extra !== null, Buffer.byteLength(text)) };
  });

/** Bodies of exactly 16 KB +- 2 bytes (a 107-segment message: 400 message_too_long, or 413). */
const edgeOfLimit = fc.integer({ min: -2, max: 2 }).map((d) => {
  const head = '{"to":"123","message":"';
  const tail = '"}';
  const text = head + 'a'.repeat(BODY_LIMIT + d - head.length - tail.length) + tail;
  return {
    text,
    expected:
      d > 0
        ? { codes: new Set(['payload_too_large']), status: 413 }
        : { codes: new Set(['message_too_long']), status: 400 },
  } as { text: string; expected: Expected };
});

const contentType = fc.oneof(
  { arbitrary: fc.constant<string | undefined>('application/json'), weight: 8 },
  {
    arbitrary: fc.constantFrom<string | undefined>(
      'application/json; charset=utf-8',
      'APPLICATION/JSON',
      'application/json; charset=latin1',
      'application/vnd.api+json',
      'application/jsonx',
      'text/plain',
      'text/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/octet-stream',
      '',
      ';',
      undefined,
    ),
    weight: 2,
  },
);

t.test('random bodies, content types and keys: envelope holds, hand-off only on 200', async (t) => {
  const { app, key, clock, handoffs } = await testApp(t);
  const caller = callerAddresses();
  const body = fc.oneof(
    { arbitrary: fc.jsonValue({ stringUnit: 'binary' }).map((v) => JSON.stringify(v) ?? 'null'), weight: 3 },
    { arbitrary: jsonText, weight: 4 },
    { arbitrary: nearValid.map((b) => b.text), weight: 4 },
    { arbitrary: garbageText, weight: 2 },
    { arbitrary: deepText, weight: 1 },
    { arbitrary: edgeOfLimit.map((b) => b.text), weight: 1 },
  );
  const auth: fc.Arbitrary<(key: string) => AuthHeader> = fc.oneof(
    { arbitrary: fc.constant((k: string): AuthHeader => `Bearer ${k}`), weight: 9 },
    { arbitrary: authArb, weight: 1 },
  );
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(body, contentType, auth, async (payload, type, authFor) => {
      clock.advance(61_000); // spacing and the 60-segment budget are always clear
      const authorization = authFor(key);
      const headers: Record<string, string | string[]> = {};
      if (authorization !== undefined) headers.authorization = authorization;
      if (type !== undefined) headers['content-type'] = type;
      const before = handoffs.length;
      const res = await app.inject({ method: 'POST', url: '/api/sms/send', remoteAddress: caller(), headers, payload });
      const code = checkEnvelope(res, 'POST');
      assert.ok(
        res.statusCode < 500,
        `a 5xx for a body, with a phone that always takes the hand-off: ${res.payload.slice(0, 300)}`,
      );
      seen.set(`${res.statusCode} ${code}`, (seen.get(`${res.statusCode} ${code}`) ?? 0) + 1);
      assert.equal(res.statusCode === 401, !refAuthorized(authorization, key), `key check: ${res.statusCode}`);
      assert.ok(code !== 'rate_limited' && code !== 'send_rate_limited', `refused for rate: ${res.payload}`);
      const added = handoffs.slice(before);
      if (res.statusCode === 200) {
        assert.equal(added.length, 1, '200 without exactly one hand-off');
        const sent = JSON.parse(payload) as { message: string };
        assert.equal(added[0]!.text, sent.message);
        assert.match(res.json().messageId, MESSAGE_ID_PATTERN);
      } else {
        assert.equal(added.length, 0, `hand-off on a ${res.statusCode}`);
      }
    }),
    { numRuns: 400 },
  );
  t.comment(`answers: ${JSON.stringify(Object.fromEntries(seen))}`);
  for (const answer of [
    '200 ok',
    '401 guard',
    '400 invalid_request',
    '413 payload_too_large',
    '415 unsupported_media_type',
  ]) {
    t.ok(seen.has(answer), `the run met ${answer}`);
  }
});

t.test('near-valid bodies: the outcome the docs predict, one hand-off per 200', async (t) => {
  const { app, auth, clock, handoffs } = await testApp(t);
  const caller = callerAddresses();
  let ok = 0;
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(
      fc.oneof({ arbitrary: nearValid, weight: 12 }, { arbitrary: edgeOfLimit, weight: 1 }),
      async ({ text, expected }) => {
        clock.advance(61_000);
        const before = handoffs.length;
        const res = await app.inject({
          method: 'POST',
          url: '/api/sms/send',
          remoteAddress: caller(),
          headers: { ...auth, 'content-type': 'application/json' },
          payload: text,
        });
        const code = checkEnvelope(res, 'POST');
        seen.set(code, (seen.get(code) ?? 0) + 1);
        assert.equal(res.statusCode, expected.status, `status for ${text.slice(0, 200)}: ${res.payload.slice(0, 300)}`);
        const added = handoffs.slice(before);
        if (expected.status !== 200) {
          assert.ok(expected.codes.has(code), `code ${code}, expected one of ${[...expected.codes].join(', ')}`);
          assert.equal(added.length, 0);
          return;
        }
        ok++;
        const ref = refSplit(expected.message!);
        const body = res.json();
        assert.deepEqual(body, {
          success: true,
          mode: 'simulated',
          smsSent: true,
          messageId: body.messageId,
          status: 'queued',
          segments: ref.parts.length,
          simSlot: expected.simSlot,
          encoding: ref.encoding,
          ...(ref.parts.length > 1 ? { warning: body.warning } : {}),
        });
        assert.match(body.messageId, MESSAGE_ID_PATTERN);
        if (ref.parts.length > 1)
          assert.match(body.warning, new RegExp(`^Message is ${ref.parts.length} segments long \\(${ref.encoding}\\)`));
        assert.deepEqual(added, [{ number: expected.number, text: expected.message, simSlot: expected.simSlot }]);
      },
    ),
    { numRuns: 400 },
  );
  t.comment(`answers: ${JSON.stringify(Object.fromEntries(seen))}`);
  t.ok(ok > 40, `some bodies were valid sends (${ok})`);
  t.ok((seen.get('message_too_long') ?? 0) > 5, 'some messages were too long');
  t.ok((seen.get('payload_too_large') ?? 0) > 5, 'some bodies were over 16 KB');
});

t.test('Idempotency-Key: a repeat gets the same answer and no second hand-off', async (t) => {
  const { app, auth, clock, handoffs } = await testApp(t);
  const caller = callerAddresses();
  let n = 0;
  const message = fc
    .string({ unit: fc.oneof(gsmBasicChar, gsmExtChar, nonGsmBmpChar), minLength: 1, maxLength: 300 })
    .filter(refHasVisible);
  await fc.assert(
    fc.asyncProperty(
      validTo(1),
      message,
      fc.boolean(),
      fc.string({ unit: wellFormedChar, minLength: 1, maxLength: 5 }),
      async (to, msg, changed, other) => {
        const key = `k-${n++}`;
        const post = (m: string) => {
          clock.advance(61_000);
          return app.inject({
            method: 'POST',
            url: '/api/sms/send',
            remoteAddress: caller(),
            headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
            payload: JSON.stringify({ to: to.to, message: m }),
          });
        };
        const before = handoffs.length;
        const first = await post(msg);
        assert.equal(first.statusCode, 200, first.payload);
        const second = await post(changed ? msg + other : msg);
        checkEnvelope(second, 'POST');
        if (changed) {
          assert.equal(second.statusCode, 400);
          assert.equal(second.json().error.code, 'invalid_request');
        } else {
          assert.equal(second.statusCode, 200);
          assert.deepEqual(second.json(), first.json());
        }
        assert.equal(handoffs.length - before, 1, 'exactly one hand-off for the key');
      },
    ),
    { numRuns: 60 },
  );
  t.pass('checked');
});
