/// <reference lib="dom" />
// The console's CSV export text: every field quoted with quotes doubled, CRLF rows, a byte
// order mark, and a field a spreadsheet would run as a formula defused with a leading '.
import t from 'tap';
import { csvField, toCsv } from '../../src/console/csv.js';

t.test('each formula start is defused, other text kept as it is', async (t) => {
  for (const start of ['=', '+', '-', '@', '\t', '\r']) t.equal(csvField(`${start}1+1`), `"'${start}1+1"`, JSON.stringify(start));
  t.equal(csvField('a "quoted", text\nline'), '"a ""quoted"", text\nline"', 'quotes doubled, commas and newlines inside quotes');
  t.equal(csvField('Hello = world'), '"Hello = world"', 'only a leading sign counts');
  t.equal(csvField(''), '""');
});

t.test('rows joined by CRLF after a byte order mark', async (t) => {
  t.equal(
    toCsv([
      ['to', 'body'],
      ['+1555', 'hi'],
    ]),
    '\uFEFF"to","body"\r\n"\'+1555","hi"\r\n',
  );
});
