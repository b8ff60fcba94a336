// CSV export for the console: rows of text as RFC 4180 CSV (every field quoted, quotes
// doubled; a field starting with =, +, -, @, tab or CR gets a leading ' so a spreadsheet
// never runs it as a formula), and a download of it as a file (a Blob URL, nothing sent).

const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, quoted, defused against formula injection. */
export function csvField(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
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
