// Every command of the docs' ```sh blocks is either run by test/e2e/docs-shell.test.ts or
// listed as not runnable here with why (test/docs/shell-classes.ts), and the list names only
// commands the docs still have. The variables the blocks use are set by a block, before their
// first use on the page that sets them, and a page that uses one it does not set links to the
// page that does. And the reader splits commands as a shell would.
import t from 'tap';
import { pages, prose } from './pages.js';
import { classify, docCommands, SKIPPED, usedVariables, type Located } from './shell-classes.js';
import { parseCommands } from './shell-words.js';

const commands = docCommands();

t.test('every command is run or listed as skipped with a reason', async (t) => {
  for (const c of commands) {
    const cls = classify(c);
    t.equal('problem' in cls ? cls.problem : undefined, undefined, `${c.page}: ${c.text}`);
  }
  const run = commands.filter((c) => 'run' in classify(c));
  t.ok(run.length >= 25, `${run.length} of ${commands.length} commands run`);
  for (const s of SKIPPED) {
    t.ok(
      commands.some((c) => c.page === s.page && c.text === s.command),
      `skipped "${s.command}" is still a command of ${s.page}`,
    );
    t.ok(s.reason.length > 10, 'with its reason');
  }
});

t.test('a new command that is neither runnable nor listed is a problem', async (t) => {
  const at = (page: string, block: string): Located[] => parseCommands(block).map((c) => ({ ...c, page }));
  const [sv, install, piped, ok] = at('docs/operations.md', 'sv once sms-gateway\nsms-gateway service uninstall\nsms-gateway status | head -1\nsms-gateway queue');
  t.match(classify(sv!), { problem: /^neither runnable here nor in SKIPPED/ });
  t.match(classify(install!), { problem: /^neither runnable here nor in SKIPPED/ }, 'a subcommand that touches the phone');
  t.match(classify(piped!), { problem: /^shell syntax this test does not run \("\|"\)/ });
  t.same(classify(ok!), { run: true });
  t.match(classify(at('docs/api.md', 'npm install')[0]!), { skip: /npm registry/ }, 'listed per page');
  t.match(classify(at('docs/sending.md', 'npm install')[0]!), { problem: /SKIPPED/ }, 'not on another page');
});

t.test('the variables are set before use, or the page says where they come from', async (t) => {
  const setters = new Map<string, Located[]>();
  for (const c of commands) if (c.assigns && 'run' in classify(c)) setters.set(c.assigns.name, [...(setters.get(c.assigns.name) ?? []), c]);
  const texts = new Map(pages().map((p) => [p.path, p.text]));
  let uses = 0;
  for (const [i, c] of commands.entries()) {
    if (!('run' in classify(c))) continue;
    for (const name of usedVariables(c.assigns ? [c.assigns.value] : c.words)) {
      uses++;
      const set = setters.get(name) ?? [];
      t.ok(set.length > 0, `${c.page}: $${name} is set by a block (${c.text})`);
      const here = set.filter((s) => s.page === c.page);
      if (here.length > 0) {
        t.ok(here.some((s) => commands.indexOf(s) < i), `${c.page}: $${name} is set before "${c.text}"`);
      } else if (set[0]) {
        const target = set[0].page.replace(/^docs\//, '');
        t.match(prose(texts.get(c.page)!), new RegExp(`\\]\\((?:docs/)?${target.replace('.', '\\.')}[)#]`), `${c.page} links to ${set[0].page}, which sets $${name}`);
      }
    }
  }
  t.ok(uses >= 20, `${uses} uses of variables`);
});

t.test('the reader splits a block as a shell would', async (t) => {
  const block = [
    'KEY=$(sms-gateway key show)   # the key',
    `curl -X POST "$GW/api/x?a=1&b=2" \\`,
    `  -H 'A: b c' -d '{"x": 1,`,
    `    "y": "it''s"}'  # 201 {"id":"wh_01m7z1d3r5c9s3j57k4fmz5wy0"}`,
    '# second line of the answer',
    '',
    '# a comment alone, after a blank line',
    'cp -a ~/.h ~/b-${DAY} && echo "a \\"q\\" $(date +%F)"',
    'x; y',
  ].join('\n');
  const cs = parseCommands(block);
  t.same(
    cs.map((c) => c.text),
    [
      'KEY=$(sms-gateway key show)',
      `curl -X POST "$GW/api/x?a=1&b=2" -H 'A: b c' -d '{"x": 1, "y": "it''s"}'`,
      'cp -a ~/.h ~/b-${DAY}',
      'echo "a \\"q\\" $(date +%F)"',
      'x; y',
    ],
  );
  t.same(cs[0]!.assigns, { name: 'KEY', value: [{ subst: [[{ lit: 'sms-gateway' }], [{ lit: 'key' }], [{ lit: 'show' }]] }] });
  t.equal(cs[0]!.shown, 'the key');
  t.same(cs[1]!.words, [
    [{ lit: 'curl' }],
    [{ lit: '-X' }],
    [{ lit: 'POST' }],
    [{ var: 'GW' }, { lit: '/api/x?a=1&b=2' }],
    [{ lit: '-H' }],
    [{ lit: 'A: b c' }],
    [{ lit: '-d' }],
    [{ lit: '{"x": 1,\n    "y": "its"}' }],
  ]);
  t.equal(cs[1]!.shown, '201 {"id":"wh_01m7z1d3r5c9s3j57k4fmz5wy0"}\nsecond line of the answer', 'the comment lines under it, up to a blank line');
  t.same(cs[2]!.words, [[{ lit: 'cp' }], [{ lit: '-a' }], [{ home: true }, { lit: '/.h' }], [{ home: true }, { lit: '/b-' }, { var: 'DAY' }]]);
  t.same(cs[3]!.words, [[{ lit: 'echo' }], [{ lit: 'a "q" ' }, { subst: [[{ lit: 'date' }], [{ lit: '+%F' }]] }]]);
  t.equal(cs[4]!.unsupported, '";"');
  t.same(cs[4]!.words, []);
  t.equal(parseCommands('FOO=1 sms-gateway status')[0]!.unsupported, 'an environment prefix (NAME=value command)');
  t.equal(parseCommands('echo $?')[0]!.unsupported, '$?');
});

t.test('a ${NAME:-default} is read with its default, and needs no block to set it', async (t) => {
  const [cp] = parseCommands('cp -a ${SMS_GATEWAY_HOME:-~/.sms-gateway} ~/backup');
  t.same(cp!.words[2], [{ var: 'SMS_GATEWAY_HOME', or: [{ home: true }, { lit: '/.sms-gateway' }] }]);
  t.same(usedVariables(cp!.words), [], 'the default stands in when nothing sets it');
  const quoted = parseCommands('echo "${H:-~/.h}"')[0]!;
  t.same(quoted.words[1], [{ var: 'H', or: [{ lit: '~/.h' }] }], 'no ~ expansion in "..."');
  t.same(parseCommands('echo ${H:-}')[0]!.words[1], [{ var: 'H', or: [] }]);
  t.equal(parseCommands('echo ${H:-$X}')[0]!.unsupported, '${NAME:-default} with a default that is not plain text');
  t.equal(parseCommands('echo ${H:=x}')[0]!.unsupported, '${...} with an operator');
});
