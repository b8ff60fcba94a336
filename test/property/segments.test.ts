// Property tests of countSegments / isGsm7 (src/sms/segments.ts) against an independent
// GSM table and a reference greedy splitter (test/property/fixtures/support.ts), written from
// docs/sending.md, segments: 160/153 septets (escape pairs never split) or
// 70/67 UTF-16 units (surrogate pairs never split).
import t from 'tap';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { countSegments, isGsm7 } from '../../src/sms/segments.js';
import {
  anyChar,
  astralChar,
  gsmBasicChar,
  gsmChar,
  gsmExtChar,
  loneSurrogate,
  naiveCount,
  nonGsmBmpChar,
  refIsGsm,
  refSplit,
} from './fixtures/support.js';

const RUNS = 1000;

/** Lengths around every capacity edge: 1 part, 2, 3 parts, for both encodings and pairs. */
const EDGES = [67, 70, 76, 80, 134, 153, 160, 201, 306, 459];
const nearEdge = fc
  .tuple(fc.constantFrom(...EDGES), fc.integer({ min: -3, max: 3 }))
  .map(([e, d]) => Math.max(0, e + d));

/**
 * Exactly `target` units (septets or UTF-16 code units) of mixed characters, for targets
 * at and next to the one-part limit and the multipart boundaries (153k / 67k).
 */
const atEdge = fc
  .tuple(fc.boolean(), fc.constantFrom(1, 2, 3), fc.integer({ min: -2, max: 2 }))
  .chain(([gsm, parts, d]) => {
    const target = (parts === 1 ? (gsm ? 160 : 70) : (gsm ? 153 : 67) * parts) + d;
    const unit = gsm
      ? fc.oneof({ arbitrary: gsmBasicChar, weight: 5 }, { arbitrary: gsmExtChar, weight: 1 })
      : fc.oneof(
          { arbitrary: nonGsmBmpChar, weight: 3 },
          { arbitrary: gsmChar, weight: 2 },
          { arbitrary: astralChar, weight: 1 },
        );
    return fc.array(unit, { minLength: target, maxLength: target }).map((chars) => {
      let out = gsm ? '' : '\u0434'; // one non-GSM char makes the text UCS-2
      let units = out.length;
      for (const c of chars) {
        const w = gsm ? refSplit(c).units : c.length;
        if (units + w > target) break;
        out += c;
        units += w;
      }
      while (units < target) {
        out += gsm ? 'a' : '\u0434';
        units++;
      }
      return out;
    });
  });

/** Strings: short random ones of every kind, long runs near the edges, exact edge sizes. */
const text = fc.oneof(
  { arbitrary: fc.string({ unit: gsmChar, maxLength: 400 }), weight: 2 },
  { arbitrary: fc.string({ unit: anyChar, maxLength: 400 }), weight: 2 },
  { arbitrary: fc.string({ unit: fc.oneof(gsmChar, astralChar), maxLength: 300 }), weight: 1 },
  {
    arbitrary: fc
      .tuple(
        fc.oneof(gsmBasicChar, gsmExtChar, nonGsmBmpChar, astralChar),
        nearEdge,
        fc.string({ unit: anyChar, maxLength: 4 }),
        fc.boolean(),
      )
      .map(([c, n, tail, front]) => (front ? tail + c.repeat(n) : c.repeat(n) + tail)),
    weight: 2,
  },
  {
    arbitrary: fc
      .tuple(fc.string({ unit: gsmBasicChar, maxLength: 160 }), fc.string({ unit: gsmExtChar, maxLength: 100 }))
      .map(([a, b]) => a + b),
    weight: 1,
  },
  { arbitrary: atEdge, weight: 3 },
);

t.test('encoding and units agree with an independent GSM 03.38 table', async (t) => {
  await fc.assert(
    fc.property(text, (s) => {
      const info = countSegments(s);
      const ref = refSplit(s);
      assert.equal(isGsm7(s), refIsGsm(s), 'isGsm7');
      assert.equal(info.encoding, ref.encoding, 'encoding');
      assert.equal(info.units, ref.units, 'units');
    }),
    { numRuns: RUNS },
  );
  t.pass('checked');
});

t.test('segment count equals the reference greedy splitter (pairs never split)', async (t) => {
  await fc.assert(
    fc.property(text, (s) => {
      const info = countSegments(s);
      const ref = refSplit(s);
      // The reference really is a split of the text that respects the rules.
      assert.equal(ref.parts.join(''), s);
      for (let i = 0; i < ref.parts.length; i++) {
        assert.ok(ref.weights[i]! <= (ref.parts.length === 1 ? ref.single : ref.multi));
        if (i > 0) {
          const prev = ref.parts[i - 1]!;
          const high = prev.charCodeAt(prev.length - 1);
          const low = ref.parts[i]!.charCodeAt(0);
          assert.ok(!(high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff), 'reference split a pair');
        }
      }
      assert.equal(info.segments, ref.parts.length, `segments of a ${ref.encoding} text of ${ref.units} units`);
      assert.equal(info.perSegment, ref.parts.length > 1 ? ref.multi : ref.single, 'perSegment');
    }),
    { numRuns: RUNS },
  );
  t.pass('checked');
});

t.test('a pair that straddles a segment boundary moves whole to the next segment', async (t) => {
  // k parts of (multi - 1) filler units, then a pair whose first half would be the
  // (multi)th unit of the part: a splitter that cuts pairs gives a smaller count.
  const straddle = fc
    .tuple(fc.boolean(), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 200 }))
    .chain(([gsm, k, rest]) =>
      fc
        .tuple(
          gsm ? gsmBasicChar : fc.oneof(nonGsmBmpChar, astralChar),
          gsm ? gsmExtChar : astralChar,
          fc.string({ unit: gsm ? gsmBasicChar : nonGsmBmpChar, minLength: rest, maxLength: rest }),
        )
        .map(([fill, pair, tail]) => {
          const multi = gsm ? 153 : 67;
          const fillUnits = fill.length; // 1, or 2 for an astral filler
          const units = k * multi - 1;
          // Filler up to one unit short of the boundary of part k (parity fixed with a 1-unit char).
          let head = fill.repeat(Math.floor(units / fillUnits));
          if (units % fillUnits) head += gsm ? 'a' : 'д';
          return head + pair + tail;
        }),
    )
    .filter((s) => refSplit(s).parts.length > 1);
  let discriminating = 0;
  await fc.assert(
    fc.property(straddle, (s) => {
      const ref = refSplit(s);
      if (naiveCount(s) !== ref.parts.length) discriminating++;
      assert.equal(countSegments(s).segments, ref.parts.length);
    }),
    { numRuns: 500 },
  );
  t.ok(discriminating > 0, `the generator hit cases where cutting a pair would change the count (${discriminating})`);
});

t.test('segments == 1 iff 0 < units <= 160 (gsm7) / 70 (ucs2); bounds from units', async (t) => {
  await fc.assert(
    fc.property(text, (s) => {
      const info = countSegments(s);
      const single = info.encoding === 'gsm7' ? 160 : 70;
      const multi = info.encoding === 'gsm7' ? 153 : 67;
      assert.equal(info.segments === 0, s.length === 0, 'zero segments iff empty');
      assert.equal(info.segments === 1, info.units > 0 && info.units <= single, 'one segment iff it fits one');
      if (info.segments > 1) {
        // Greedy packing of tokens of at most 2 units wastes at most 1 unit per part.
        assert.ok(info.segments >= Math.ceil(info.units / multi), 'fewer parts than the units need');
        assert.ok(info.segments <= Math.ceil(info.units / (multi - 1)), 'more parts than pair waste explains');
      }
    }),
    { numRuns: RUNS },
  );
  t.pass('checked');
});

t.test('monotone: appending a character never lowers the segment count', async (t) => {
  await fc.assert(
    fc.property(text, fc.oneof(anyChar, gsmExtChar, loneSurrogate), (s, c) => {
      const b = countSegments(s);
      const a = countSegments(s + c);
      assert.ok(
        a.segments >= b.segments,
        `${b.segments} -> ${a.segments} after appending U+${c.charCodeAt(0).toString(16)}`,
      );
      // Within one encoding a character (at most 2 units) opens at most one more part.
      if (a.encoding === b.encoding)
        assert.ok(a.segments <= b.segments + 1, `${b.segments} -> ${a.segments} (${a.encoding})`);
    }),
    { numRuns: RUNS },
  );
  t.pass('checked');
});

t.test('a GSM-only string is gsm7; inserting any non-GSM character makes it ucs2', async (t) => {
  await fc.assert(
    fc.property(
      fc.string({ unit: gsmChar, maxLength: 400 }),
      fc.oneof(nonGsmBmpChar, astralChar, loneSurrogate),
      fc.nat(),
      (s, c, at) => {
        assert.equal(isGsm7(s), true);
        assert.equal(countSegments(s).encoding, 'gsm7');
        const i = at % (s.length + 1);
        const mixed = s.slice(0, i) + c + s.slice(i);
        assert.equal(isGsm7(mixed), false);
        const info = countSegments(mixed);
        assert.equal(info.encoding, 'ucs2');
        assert.equal(info.units, mixed.length, 'ucs2 units are UTF-16 code units');
      },
    ),
    { numRuns: RUNS },
  );
  t.pass('checked');
});

t.test('linear-ish: a text repeated k times needs at most k * count + k segments', async (t) => {
  await fc.assert(
    fc.property(
      text.filter((s) => s.length > 0 && s.length <= 200),
      fc.integer({ min: 1, max: 12 }),
      (s, k) => {
        const one = countSegments(s).segments;
        const many = countSegments(s.repeat(k)).segments;
        assert.ok(many <= k * one + k, `${one} x ${k} -> ${many}`);
        assert.ok(many >= one, `${one} x ${k} -> ${many}`);
      },
    ),
    { numRuns: RUNS },
  );
  t.pass('checked');
});
