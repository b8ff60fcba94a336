// Property tests of optOutKeyword (src/sms/opt-out-keywords.ts) from docs/receiving.md "Opt-out
// (STOP)": the whole text, trimmed, in any case, with trailing punctuation ignored, is one
// keyword; anything else (a longer word, a sentence, a split word, punctuation in front)
// is none.
import t from 'tap';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { optOutKeyword } from '../../src/sms/opt-out-keywords.js';

const RUNS = 1000;
const OPT_OUT = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'];
const OPT_IN = ['START', 'UNSTOP'];
const HELP = ['HELP', 'INFO'];
const ALL = [...OPT_OUT, ...OPT_IN, ...HELP];
const expected = (k: string) => (OPT_OUT.includes(k) ? 'opt_out' : OPT_IN.includes(k) ? 'opt_in' : 'help');

/** The word in a random mix of cases. */
const anyCase = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((up) => [...word].map((c, i) => (up[i] ? c : c.toLowerCase())).join(''));
const spaces = fc.constantFrom('', ' ', '  ', '\t', '\n', ' \r\n');
const trailing = fc
  .array(fc.constantFrom('!', '.', '?', ',', ';', '…', '!!', ' ', '。', '"'), { maxLength: 4 })
  .map((p) => p.join(''));

t.test('a keyword in any case, with spaces around and trailing punctuation, is that keyword', async () => {
  fc.assert(
    fc.property(
      fc.constantFrom(...ALL).chain((k) => fc.tuple(fc.constant(k), anyCase(k), spaces, trailing, spaces)),
      ([k, word, before, punct, after]) => {
        assert.equal(optOutKeyword(`${before}${word}${punct}${after}`), expected(k));
      },
    ),
    { numRuns: RUNS },
  );
});

t.test(
  'a keyword with letters, digits or words added, split by a space or preceded by punctuation is none',
  async () => {
    const extra = fc.stringMatching(/^[A-Za-z0-9]{1,6}$/);
    const changed = fc.constantFrom(...ALL).chain((k) =>
      fc.oneof(
        extra.map((x) => `${k}${x}`), // STOPPED, STOP2
        extra.map((x) => `${x}${k}`), // NOSTOP
        extra.map((x) => `${k} ${x}`), // stop by
        extra.map((x) => `${x} ${k}`), // please stop
        fc.integer({ min: 1, max: k.length - 1 }).map((i) => `${k.slice(0, i)} ${k.slice(i)}`), // S TOP
        fc.constantFrom('!', '¿', '-', '"').map((p) => `${p}${k}`),
      ),
    );
    fc.assert(
      fc.property(changed, (text) => {
        // Adding letters can make another keyword (UN+STOP, STOP+ALL): only those may match, and as that keyword.
        const other = ALL.find((k) => k === text.toUpperCase());
        assert.equal(optOutKeyword(text), other ? expected(other) : null, JSON.stringify(text));
      }),
      { numRuns: RUNS },
    );
  },
);

t.test('the named near-misses and matches', async (t) => {
  t.equal(optOutKeyword('Stop!'), 'opt_out');
  t.equal(optOutKeyword('  unsubscribe.  '), 'opt_out');
  t.equal(optOutKeyword('Start'), 'opt_in');
  t.equal(optOutKeyword('info?'), 'help');
  for (const miss of ['STOPPED', 'stop by later', 'S TOP', '', '!', 'STOP STOP', 'ST0P', 'stop\nplease'])
    t.equal(optOutKeyword(miss), null, JSON.stringify(miss));
});
