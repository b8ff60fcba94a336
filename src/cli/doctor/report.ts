// The doctor's report: one line per finding ([ ok ], [FAIL], [warn], [info]) with an
// indented `fix:` for anything not ok, and the one-line summary at the end.

export type Finding =
  | { status: 'ok'; name: string; finding: string }
  | { status: 'fail' | 'warn' | 'info'; name: string; finding: string; fix: [string, ...string[]] };

const TAGS: Record<Finding['status'], string> = { ok: '[ ok ]', fail: '[FAIL]', warn: '[warn]', info: '[info]' };
const INDENT = ' '.repeat(TAGS.ok.length + 1);

export function formatFinding(f: Finding): string {
  const lines = [`${TAGS[f.status]} ${f.name}: ${f.finding}`];
  if (f.status !== 'ok') {
    const [first, ...rest] = f.fix;
    lines.push(`${INDENT}fix: ${first}`, ...rest.map((l) => `${INDENT}     ${l}`));
  }
  return `${lines.join('\n')}\n`;
}

/** The last line: the counts, and what to do next. */
export function summaryLine(findings: Finding[]): string {
  const count = (s: Finding['status']) => findings.filter((f) => f.status === s).length;
  const failed = count('fail');
  return `Summary: ${count('ok')} ok, ${failed} FAIL, ${count('warn')} warn, ${count('info')} info: ${
    failed > 0 ? 'fix the [FAIL] lines, then run `sms-gateway doctor` again.' : 'ready for `sms-gateway start`.'
  }\n`;
}
