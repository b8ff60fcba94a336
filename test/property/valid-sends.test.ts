// Property tests of valid sends through the real hooks: a recipient of an optional + and
// 3..15 digits with decorations anywhere, a message of GSM or any well-formed Unicode text
// of at most 60 segments, an optional SIM slot. Every one is 200 with the segment count of
// countSegments, exactly one hand-off of the very text and the normalized number, and a
// history record that holds `to` and the text exactly as sent.
import t from 'tap';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { testApp } from '../helpers/test-app.js';
import { countSegments } from '../../src/sms/segments.js';
import { MESSAGE_ID_PATTERN } from '../../src/core/ids.js';
import {
  astralChar,
  callerAddresses,
  checkEnvelope,
  gsmBasicChar,
  gsmChar,
  gsmExtChar,
  nonGsmBmpChar,
  refHasVisible,
  refSplit,
  validTo,
  wellFormedChar,
} from './fixtures/support.js';
import { BODY_LIMIT } from '../../src/http/errors.js';

/** Short texts of every kind, repeated chunks, and runs right at the 60-segment edge. */
const message = fc.oneof(
  { arbitrary: fc.string({ unit: gsmChar, minLength: 1, maxLength: 300 }), weight: 3 },
  { arbitrary: fc.string({ unit: wellFormedChar, minLength: 1, maxLength: 300 }), weight: 3 },
  { arbitrary: fc.string({ unit: fc.oneof(nonGsmBmpChar, astralChar), minLength: 1, maxLength: 200 }), weight: 2 },
  {
    arbitrary: fc
      .string({ unit: wellFormedChar, minLength: 1, maxLength: 40 })
      .chain((s) => fc.integer({ min: 1, max: Math.max(1, Math.floor(4000 / s.length)) }).map((k) => s.repeat(k))),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom<[fc.Arbitrary<string>, number]>(
          [gsmBasicChar, 9180],
          [gsmExtChar, 4590],
          [nonGsmBmpChar, 4020],
        ),
        fc.nat({ max: 4 }),
      )
      .chain(([[c, n], d]) => c.map((ch) => ch.repeat(n - d))),
    weight: 1,
  },
);

interface Case {
  to: string;
  number: string;
  message: string;
  simSlot: number | undefined;
  payload: string;
}

const validSend = fc
  .tuple(validTo(2), message, fc.option(fc.constantFrom(1, 2), { nil: undefined }))
  .map(([{ to, number }, msg, simSlot]): Case => ({
    to,
    number,
    message: msg,
    simSlot,
    payload: JSON.stringify(simSlot === undefined ? { to, message: msg } : { to, message: msg, simSlot }),
  }))
  .filter(
    (c) =>
      refHasVisible(c.message) && // not only whitespace, controls, format characters or lone marks
      refSplit(c.message).parts.length <= 60 &&
      Buffer.byteLength(c.payload) <= BODY_LIMIT,
  );

t.test('every valid send: 200, countSegments, one exact hand-off, record as sent', async (t) => {
  const { app, auth, clock, handoffs } = await testApp(t, { simCount: 2, defaultSim: 1 });
  const caller = callerAddresses();
  const sizes = new Set<number>();
  await fc.assert(
    fc.asyncProperty(validSend, async (c) => {
      clock.advance(61_000); // a 60-segment message fills the budget for a minute
      const before = handoffs.length;
      const res = await app.inject({
        method: 'POST',
        url: '/api/sms/send',
        remoteAddress: caller(),
        headers: { ...auth, 'content-type': 'application/json' },
        payload: c.payload,
      });
      checkEnvelope(res, 'POST');
      assert.equal(res.statusCode, 200, res.payload.slice(0, 300));
      const seg = countSegments(c.message);
      sizes.add(seg.segments);
      const body = res.json();
      assert.match(body.messageId, MESSAGE_ID_PATTERN);
      assert.equal(body.segments, seg.segments);
      assert.equal(body.encoding, seg.encoding);
      assert.equal(body.simSlot, c.simSlot ?? 1);
      assert.equal('warning' in body, seg.segments > 1, 'warning iff multipart');
      assert.deepEqual(handoffs.slice(before), [{ number: c.number, text: c.message, simSlot: c.simSlot ?? 1 }]);
      // Byte for byte, not merely equal after normalization.
      assert.ok(Buffer.from(handoffs[before]!.text, 'utf16le').equals(Buffer.from(c.message, 'utf16le')));

      const rec = await app.inject({ url: `/api/messages/${body.messageId}`, remoteAddress: caller(), headers: auth });
      assert.equal(rec.statusCode, 200);
      const data = rec.json().data;
      assert.equal(data.to, c.to, 'to stored exactly as sent');
      assert.equal(data.body, c.message, 'body stored exactly as sent');
      assert.equal(data.segments, seg.segments);
      assert.equal(data.status, 'sent');
      assert.equal(data.simSlot, c.simSlot ?? 1);
    }),
    { numRuns: 250 },
  );
  t.ok(
    sizes.has(1) && [...sizes].some((n) => n > 1) && [...sizes].some((n) => n >= 55),
    `segment counts met: ${[...sizes].sort((a, b) => a - b).join(',')}`,
  );
});

// docs/sending.md, recipient: decorations are removed and what remains is checked; no
// length limit on `to` is documented, but SendRequestSchema caps it at 64 characters.
t.test('a valid recipient with many decorations (over 64 characters) is accepted', async (t) => {
  const { app, auth, clock, handoffs } = await testApp(t);
  const caller = callerAddresses();
  const longTo = validTo(8).filter(({ to }) => to.length > 64);
  await fc.assert(
    fc.asyncProperty(longTo, async ({ to, number }) => {
      clock.advance(61_000);
      const before = handoffs.length;
      const res = await app.inject({
        method: 'POST',
        url: '/api/sms/send',
        remoteAddress: caller(),
        headers: { ...auth, 'content-type': 'application/json' },
        payload: JSON.stringify({ to, message: 'hi' }),
      });
      checkEnvelope(res, 'POST');
      assert.equal(res.statusCode, 200, `${JSON.stringify(to)} (${to.length} chars): ${res.payload}`);
      assert.deepEqual(handoffs.slice(before), [{ number, text: 'hi', simSlot: 1 }]);
    }),
    { numRuns: 20 },
  );
});
