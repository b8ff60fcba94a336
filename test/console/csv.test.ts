/// <reference lib="dom" />
// The console's CSV export text: every field quoted with quotes doubled, CRLF rows, a byte
// order mark, a field a spreadsheet would run as a formula defused with a leading ', and a
// phone number written as a constant text formula (="+1555...") a spreadsheet shows as it is.
import t from 'tap';
import { csvField, toCsv } from '../../src/console/csv.js';

t.test('each formula start is defused, other text kept as it is', async (t) => {
  for (const start of ['=', '+', '-', '@', '\t', '\r'])
    t.equal(csvField(`${start}1+1`), `"'${start}1+1"`, JSON.stringify(start));
  t.equal(
    csvField('a "quoted", text\nline'),
    '"a ""quoted"", text\nline"',
    'quotes doubled, commas and newlines inside quotes',
  );
  t.equal(csvField('Hello = world'), '"Hello = world"', 'only a leading sign counts');
  t.equal(csvField(''), '""');
});

t.test('a phone number stays readable: ="+1555..." (a constant text), never a sum or a quoted sign', async (t) => {
  t.equal(csvField('+15551230001'), `"=""+15551230001"""`);
  t.equal(csvField('+15551230001123456789'), `"=""+15551230001123456789"""`, 'up to 20 digits');
  t.equal(csvField('+1555123000112345678901'), `"'+1555123000112345678901"`, 'longer: defused with a quote');
  t.equal(csvField('+1555 123'), `"'+1555 123"`, 'anything more than + and digits: defused with a quote');
  t.equal(csvField('+1+1'), `"'+1+1"`);
  t.equal(csvField('+'), `"'+"`);
  t.equal(csvField('+1555"),HYPERLINK("x'), `"'+1555""),HYPERLINK(""x"`, 'a quote cannot end the text early');
  t.equal(csvField('15551230001'), '"15551230001"', 'a number without + as it is');
});

t.test('rows joined by CRLF after a byte order mark', async (t) => {
  t.equal(
    toCsv([
      ['to', 'body'],
      ['+1555', 'hi'],
    ]),
    '\uFEFF"to","body"\r\n"=""+1555""","hi"\r\n',
  );
});
