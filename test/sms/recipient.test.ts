// Tests the recipient rules (docs/sending.md, recipient): spaces, dashes, dots and
// parentheses are removed; what remains must be an optional leading + and 3 to 15 ASCII
// digits. Tabs, newlines, non-ASCII digits, letters and lists are refused.
import t from 'tap';
import { normalizeRecipient } from '../../src/sms/recipient.js';

const accepted: [input: string, number: string][] = [
  ['+1 (555) 123-4567', '+15551234567'],
  ['555.123.4567', '5551234567'],
  ['555-123-4567', '5551234567'],
  ['(555) 123 4567', '5551234567'],
  ['  5551234567  ', '5551234567'],
  ['+44 20 7946 0958', '+442079460958'],
  ['123', '123'],
  ['12345', '12345'],
  ['+123', '+123'],
  ['123456789012345', '123456789012345'],
  ['+123456789012345', '+123456789012345'],
  ['1-2-3', '123'],
  ['+ 1 555 123', '+1555123'],
  ['(+1) 555', '+1555'],
];

t.test('accepted forms and their normalized number', async (t) => {
  for (const [input, number] of accepted) {
    t.same(normalizeRecipient(input), { ok: true, number }, JSON.stringify(input));
  }
});

const refused: [name: string, input: string][] = [
  ['2 digits', '12'],
  ['+ and 2 digits', '+12'],
  ['16 digits', '1234567890123456'],
  ['+ and 16 digits', '+1234567890123456'],
  ['16 digits with decoration', '+1 (555) 123-4567-890-12'],
  ['letters', '555-CALL-NOW'],
  ['a lone letter among digits', '555123456x'],
  ['an extension', '5551234567 ext 12'],
  ['+ in the middle', '555+1234567'],
  ['+ at the end', '5551234567+'],
  ['two leading +', '++15551234567'],
  ['two + apart', '+1555+1234567'],
  ['only +', '+'],
  ['tab between digits', '555\t1234567'],
  ['leading tab', '\t5551234567'],
  ['newline between digits', '555\n1234567'],
  ['trailing newline', '5551234567\n'],
  ['carriage return', '5551234567\r'],
  ['no-break space', '555\u00a01234567'],
  ['Arabic-Indic digits', '٠١٢٣٤٥٦٧'],
  ['Extended Arabic-Indic digits', '۰۱۲۳۴۵۶'],
  ['Devanagari digits', '०१२३४५'],
  ['full-width digits', '５５５１２３４５６７'],
  ['ASCII digits mixed with one full-width digit', '555123456７'],
  ['full-width plus', '＋15551234567'],
  ['empty string', ''],
  ['only spaces', '     '],
  ['only dashes', '---'],
  ['only spaces, dashes, dots and parentheses', ' - . ( ) '],
  ['slash', '555/1234567'],
  ['underscore', '555_1234567'],
  ['hash', '#5551234567'],
  ['star code', '*123#'],
];

t.test('refused forms give ok=false with a message', async (t) => {
  for (const [name, input] of refused) {
    const r = normalizeRecipient(input);
    t.equal(r.ok, false, `${name}: ${JSON.stringify(input)}`);
    if (!r.ok) {
      t.match(r.message, /phone number/, `${name}: the message says what is expected`);
      t.notMatch(r.message, /comma/, `${name}: not the list message`);
    }
  }
});

const lists: [name: string, input: string][] = [
  ['two numbers with a comma', '5551234567,5559876543'],
  ['comma and space', '+15551234567, +15559876543'],
  ['semicolon', '5551234567;5559876543'],
  ['semicolon and space', '555 123 4567; 555 987 6543'],
  ['trailing comma', '5551234567,'],
  ['leading semicolon', ';5551234567'],
  ['comma only', ','],
];

t.test('comma and semicolon lists are refused with a message about commas', async (t) => {
  for (const [name, input] of lists) {
    const r = normalizeRecipient(input);
    t.equal(r.ok, false, `${name}: ${JSON.stringify(input)}`);
    if (!r.ok) {
      t.match(r.message, /comma/, `${name}: mentions commas`);
      t.match(r.message, /semicolon/, `${name}: mentions semicolons`);
    }
  }
});

t.test('the answer depends only on the input (no state kept between calls)', async (t) => {
  // A global regex used with test() keeps lastIndex between calls and would alternate answers.
  const answers = new Set<string>();
  for (let i = 0; i < 10; i++) {
    answers.add(JSON.stringify(normalizeRecipient('5551234567')));
    answers.add(JSON.stringify(normalizeRecipient('12+34')));
  }
  t.same([...answers].map((a) => JSON.parse(a).ok).sort(), [false, true], 'one answer per input, every time');
});
