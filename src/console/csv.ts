// CSV export for the console: rows of text as RFC 4180 CSV (every field quoted, quotes
// doubled), safe to open in a spreadsheet and readable there: a phone number (+ and digits
// only) becomes the formula ="+15551230001", a constant text that shows as the number with its
// + (as plain +15551230001 it would be read as the sum 15551230001); any other field starting
// with =, +, -, @, tab or CR gets a leading ' so a spreadsheet never runs it as a formula. And a
// download of it as a file (a Blob URL, nothing sent).

const FORMULA_START = /^[=+\-@\t\r]/;
/** A number as the gateway writes one (E.164): nothing in it a formula could run. */
const PHONE_NUMBER = /^\+\d{1,20}$/;

/** One field, quoted, defused against formula injection. */
export function csvField(value: string): string {
  const safe = PHONE_NUMBER.test(value) ? `="${value}"` : FORMULA_START.test(value) ? `'${value}` : value;
  return `"${safe.replaceAll('"', '""')}"`;
}
/** The rows as CSV text, CRLF between rows, with a byte order mark so spreadsheets read UTF-8. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  return `\uFEFF${rows.map((row) => row.map(csvField).join(',')).join('\r\n')}\r\n`;
}

/** Saves the text as a file named `name` through the browser's download. */
export function downloadCsv(name: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.click();
  // Revoked later: revoking at once can cut the download short in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
