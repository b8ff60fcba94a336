// Tests SMS segment counting: GSM 03.38 alphabet membership, 160/153 and
// 70/67 capacities, and the greedy rule that escape pairs and surrogate pairs
// are never split across segments.
import t from 'tap';
import { countSegments, isGsm7 } from '../../src/sms/segments.js';

// Written independently of the source as code points in table order
// 0x00..0x7F, so a typo in one list does not hide a typo in the other.
// null marks 0x1B, the escape slot, which is not a character.
const BASIC_CODE_POINTS: ReadonlyArray<number | null> = [
  0x40,
  0xa3,
  0x24,
  0xa5,
  0xe8,
  0xe9,
  0xf9,
  0xec,
  0xf2,
  0xc7,
  0x0a,
  0xd8,
  0xf8,
  0x0d,
  0xc5,
  0xe5,
  0x394,
  0x5f,
  0x3a6,
  0x393,
  0x39b,
  0x3a9,
  0x3a0,
  0x3a8,
  0x3a3,
  0x398,
  0x39e,
  null,
  0xc6,
  0xe6,
  0xdf,
  0xc9,
  0x20,
  0x21,
  0x22,
  0x23,
  0xa4,
  0x25,
  0x26,
  0x27,
  0x28,
  0x29,
  0x2a,
  0x2b,
  0x2c,
  0x2d,
  0x2e,
  0x2f,
  0x30,
  0x31,
  0x32,
  0x33,
  0x34,
  0x35,
  0x36,
  0x37,
  0x38,
  0x39,
  0x3a,
  0x3b,
  0x3c,
  0x3d,
  0x3e,
  0x3f,
  0xa1,
  0x41,
  0x42,
  0x43,
  0x44,
  0x45,
  0x46,
  0x47,
  0x48,
  0x49,
  0x4a,
  0x4b,
  0x4c,
  0x4d,
  0x4e,
  0x4f,
  0x50,
  0x51,
  0x52,
  0x53,
  0x54,
  0x55,
  0x56,
  0x57,
  0x58,
  0x59,
  0x5a,
  0xc4,
  0xd6,
  0xd1,
  0xdc,
  0xa7,
  0xbf,
  0x61,
  0x62,
  0x63,
  0x64,
  0x65,
  0x66,
  0x67,
  0x68,
  0x69,
  0x6a,
  0x6b,
  0x6c,
  0x6d,
  0x6e,
  0x6f,
  0x70,
  0x71,
  0x72,
  0x73,
  0x74,
  0x75,
  0x76,
  0x77,
  0x78,
  0x79,
  0x7a,
  0xe4,
  0xf6,
  0xf1,
  0xfc,
  0xe0,
];
const BASIC = BASIC_CODE_POINTS.filter((c): c is number => c !== null)
  .map((c) => String.fromCharCode(c))
  .join('');
const EXTENDED = '\u000c^{}\\[~]|\u20ac';

const a = (n: number): string => 'a'.repeat(n);
const d = (n: number): string => 'д'.repeat(n);
const EMOJI = '\u{1F600}';

interface Vector {
  name: string;
  text: string;
  encoding: 'gsm7' | 'ucs2';
  segments: number;
  units: number;
  perSegment: number;
}

const vectors: Vector[] = [
  { name: 'empty', text: '', encoding: 'gsm7', segments: 0, units: 0, perSegment: 160 },
  { name: '1 char', text: 'a', encoding: 'gsm7', segments: 1, units: 1, perSegment: 160 },
  { name: '160 gsm', text: a(160), encoding: 'gsm7', segments: 1, units: 160, perSegment: 160 },
  { name: '161 gsm', text: a(161), encoding: 'gsm7', segments: 2, units: 161, perSegment: 153 },
  { name: '306 gsm', text: a(306), encoding: 'gsm7', segments: 2, units: 306, perSegment: 153 },
  { name: '307 gsm', text: a(307), encoding: 'gsm7', segments: 3, units: 307, perSegment: 153 },
  { name: '459 gsm', text: a(459), encoding: 'gsm7', segments: 3, units: 459, perSegment: 153 },
  { name: '460 gsm', text: a(460), encoding: 'gsm7', segments: 4, units: 460, perSegment: 153 },
  { name: '80 [', text: '['.repeat(80), encoding: 'gsm7', segments: 1, units: 160, perSegment: 160 },
  { name: '81 [', text: '['.repeat(81), encoding: 'gsm7', segments: 2, units: 162, perSegment: 153 },
  // Naive ceil(306/153) = 2; the pair moves to segment 2, which then overflows.
  {
    name: '[ straddles 153',
    text: a(152) + '[' + a(152),
    encoding: 'gsm7',
    segments: 3,
    units: 306,
    perSegment: 153,
  },
  {
    name: '€ straddles 153, rest still fits',
    text: a(152) + '€' + a(151),
    encoding: 'gsm7',
    segments: 2,
    units: 305,
    perSegment: 153,
  },
  {
    name: '€ straddles 153, rest overflows',
    text: a(152) + '€' + a(152),
    encoding: 'gsm7',
    segments: 3,
    units: 306,
    perSegment: 153,
  },
  {
    name: '[ ends exactly at 153',
    text: a(151) + '[' + a(153),
    encoding: 'gsm7',
    segments: 2,
    units: 306,
    perSegment: 153,
  },
  { name: 'form feed', text: '\f', encoding: 'gsm7', segments: 1, units: 2, perSegment: 160 },
  { name: '158 + FF', text: a(158) + '\f', encoding: 'gsm7', segments: 1, units: 160, perSegment: 160 },
  { name: '159 + FF', text: a(159) + '\f', encoding: 'gsm7', segments: 2, units: 161, perSegment: 153 },
  { name: 'Ç is GSM', text: 'Ça va', encoding: 'gsm7', segments: 1, units: 5, perSegment: 160 },
  { name: '70 д', text: d(70), encoding: 'ucs2', segments: 1, units: 70, perSegment: 70 },
  { name: '71 д', text: d(71), encoding: 'ucs2', segments: 2, units: 71, perSegment: 67 },
  { name: '134 д', text: d(134), encoding: 'ucs2', segments: 2, units: 134, perSegment: 67 },
  { name: '135 д', text: d(135), encoding: 'ucs2', segments: 3, units: 135, perSegment: 67 },
  { name: '35 emoji', text: EMOJI.repeat(35), encoding: 'ucs2', segments: 1, units: 70, perSegment: 70 },
  { name: '36 emoji', text: EMOJI.repeat(36), encoding: 'ucs2', segments: 2, units: 72, perSegment: 67 },
  // 33 emoji per segment, so 67 emoji need 3; naive ceil(134/67) = 2.
  { name: '67 emoji', text: EMOJI.repeat(67), encoding: 'ucs2', segments: 3, units: 134, perSegment: 67 },
  { name: '66 д + emoji (single)', text: d(66) + EMOJI, encoding: 'ucs2', segments: 1, units: 68, perSegment: 70 },
  // Naive ceil(134/67) = 2; the pair moves to segment 2, which then overflows.
  {
    name: 'emoji straddles 67',
    text: d(66) + EMOJI + d(66),
    encoding: 'ucs2',
    segments: 3,
    units: 134,
    perSegment: 67,
  },
  {
    name: 'emoji ends exactly at 67',
    text: d(65) + EMOJI + d(67),
    encoding: 'ucs2',
    segments: 2,
    units: 134,
    perSegment: 67,
  },
  {
    name: 'lone high surrogate at 67 is one unit',
    text: d(66) + '\ud83d' + d(67),
    encoding: 'ucs2',
    segments: 2,
    units: 134,
    perSegment: 67,
  },
  { name: 'backtick forces ucs2', text: a(159) + '`', encoding: 'ucs2', segments: 3, units: 160, perSegment: 67 },
  { name: 'ç forces ucs2', text: 'Hello ç', encoding: 'ucs2', segments: 1, units: 7, perSegment: 70 },
  { name: 'tab forces ucs2', text: 'a\tb', encoding: 'ucs2', segments: 1, units: 3, perSegment: 70 },
  { name: 'raw ESC forces ucs2', text: 'a\u001bb', encoding: 'ucs2', segments: 1, units: 3, perSegment: 70 },
  { name: 'no trimming', text: ' '.repeat(161), encoding: 'gsm7', segments: 2, units: 161, perSegment: 153 },
  { name: 'CRLF counted', text: 'a\r\n', encoding: 'gsm7', segments: 1, units: 3, perSegment: 160 },
  {
    name: 'no normalization (combining acute)',
    text: 'e\u0301',
    encoding: 'ucs2',
    segments: 1,
    units: 2,
    perSegment: 70,
  },
  { name: 'precomposed é', text: '\u00e9', encoding: 'gsm7', segments: 1, units: 1, perSegment: 160 },
  // The caller caps messages at 60 segments.
  { name: '60 gsm segments', text: a(153 * 60), encoding: 'gsm7', segments: 60, units: 9180, perSegment: 153 },
  { name: '61 gsm segments', text: a(153 * 60 + 1), encoding: 'gsm7', segments: 61, units: 9181, perSegment: 153 },
  // 76 pairs (152 septets) per segment; naive ceil(9122/153) = 60.
  {
    name: '60 segments of [',
    text: '['.repeat(76 * 60),
    encoding: 'gsm7',
    segments: 60,
    units: 9120,
    perSegment: 153,
  },
  {
    name: '61 segments of [',
    text: '['.repeat(76 * 60 + 1),
    encoding: 'gsm7',
    segments: 61,
    units: 9122,
    perSegment: 153,
  },
  { name: '60 ucs2 segments', text: d(67 * 60), encoding: 'ucs2', segments: 60, units: 4020, perSegment: 67 },
  { name: '61 ucs2 segments', text: d(67 * 60 + 1), encoding: 'ucs2', segments: 61, units: 4021, perSegment: 67 },
];

t.test('vectors', async (t) => {
  for (const v of vectors) {
    t.strictSame(
      countSegments(v.text),
      { encoding: v.encoding, segments: v.segments, units: v.units, perSegment: v.perSegment },
      v.name,
    );
    t.equal(isGsm7(v.text), v.encoding === 'gsm7', `${v.name}: isGsm7`);
  }
});

t.test('test tables have the expected sizes', async (t) => {
  t.equal(BASIC.length, 127, '128 slots minus ESC');
  t.equal(new Set(BASIC).size, 127, 'basic entries are distinct');
  t.equal(EXTENDED.length, 10);
});

t.test('every basic char counts 1 septet', async (t) => {
  for (const ch of BASIC) {
    const hex = ch.charCodeAt(0).toString(16);
    t.strictSame(countSegments(ch), { encoding: 'gsm7', segments: 1, units: 1, perSegment: 160 }, `U+${hex}`);
  }
  t.strictSame(countSegments(BASIC), { encoding: 'gsm7', segments: 1, units: 127, perSegment: 160 }, 'all basic');
});

t.test('every extension char counts 2 septets', async (t) => {
  for (const ch of EXTENDED) {
    const hex = ch.charCodeAt(0).toString(16);
    t.strictSame(countSegments(ch), { encoding: 'gsm7', segments: 1, units: 2, perSegment: 160 }, `U+${hex}`);
  }
  t.strictSame(countSegments(EXTENDED), { encoding: 'gsm7', segments: 1, units: 20, perSegment: 160 }, 'all ext');
  t.strictSame(
    countSegments(BASIC + EXTENDED),
    { encoding: 'gsm7', segments: 1, units: 147, perSegment: 160 },
    'basic + ext together',
  );
});

t.test('look-alikes outside the alphabet switch to ucs2', async (t) => {
  const outsiders = [
    '`', // backtick
    'ç', // only capital Ç is GSM
    'Ê',
    'ú',
    'á',
    'ÿ',
    '\u00a0', // no-break space
    '\u2019', // right single quote
    '\u2206', // increment sign, not Greek Δ
    '\u2126', // ohm sign, not Greek Ω
    '\u0000',
    '\u007f',
  ];
  for (const ch of outsiders) {
    const hex = ch.charCodeAt(0).toString(16);
    t.equal(isGsm7(ch), false, `U+${hex} isGsm7`);
    t.equal(countSegments('abc' + ch).encoding, 'ucs2', `U+${hex} in GSM text`);
  }
});

t.test('alphabet is exactly basic + extension over the whole BMP', async (t) => {
  const allowed = new Set(BASIC + EXTENDED);
  const wrong: string[] = [];
  for (let c = 0; c <= 0xffff; c++) {
    const ch = String.fromCharCode(c);
    if (isGsm7(ch) !== allowed.has(ch)) wrong.push(c.toString(16));
  }
  t.strictSame(wrong, [], 'no code unit classified differently from the table');
});

t.test('isGsm7 on strings', async (t) => {
  t.equal(isGsm7(''), true, 'empty');
  t.equal(isGsm7('Hello {world} €5'), true, 'mixed basic + ext');
  t.equal(isGsm7('Hello ' + EMOJI), false, 'emoji');
});

t.test('large input stays correct', async (t) => {
  const n = 1_000_000;
  t.strictSame(countSegments(a(n)), {
    encoding: 'gsm7',
    segments: Math.ceil(n / 153),
    units: n,
    perSegment: 153,
  });
});
