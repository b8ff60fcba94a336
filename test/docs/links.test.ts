// Every relative link of README.md, CONTRIBUTING.md, CHANGELOG.md and docs/*.md leads to a
// file that exists, and its #anchor (also a link within the page) to a heading of that file.
// No page links out of the repository's own tree.
import t from 'tap';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { ROOT } from '../helpers/paths.js';
import { anchors, pages, prose } from './pages.js';

interface Link {
  page: string;
  target: string;
}

/** Markdown links `[text](target)` outside code, external ones (scheme:) left out. */
function relativeLinks(page: string, text: string): Link[] {
  const out: Link[] = [];
  for (const m of prose(text).replace(/`[^`\n]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = m[1]!;
    if (!/^[a-z][a-z0-9+.-]*:/i.test(target)) out.push({ page, target });
  }
  return out;
}

/** What is wrong with one link, or undefined. */
export function problem(link: Link): string | undefined {
  const [file, anchor] = link.target.split('#') as [string, string | undefined];
  const path = file === '' ? join(ROOT, link.page) : normalize(join(ROOT, dirname(link.page), file));
  const inside = relative(ROOT, path);
  if (inside.startsWith('..')) return `${link.target} leaves the repository`;
  if (!existsSync(path)) return `${link.target}: ${inside} does not exist`;
  if (anchor === undefined) return undefined;
  if (!statSync(path).isFile() || !path.endsWith('.md')) return `${link.target}: an anchor into a file that is not a page`;
  if (!anchors(readFileSync(path, 'utf8')).has(anchor)) return `${link.target}: ${inside} has no heading #${anchor}`;
  return undefined;
}

t.test('every relative link leads to a file, and every anchor to a heading', async (t) => {
  const links = pages().flatMap((p) => relativeLinks(p.path, p.text));
  t.ok(links.length > 50, `${links.length} links checked`);
  const problems = links.map((l) => ({ ...l, problem: problem(l) })).filter((l) => l.problem);
  t.same(problems.map((l) => `${l.page}: ${l.problem}`), []);
});

t.test('the README links to every page of docs/, and every page back to the README', async (t) => {
  const all = pages();
  const readme = all.find((p) => p.path === 'README.md')!;
  for (const page of all.filter((p) => p.path.startsWith('docs/'))) {
    t.match(readme.text, `](${page.path})`, `the README's table names ${page.path}`);
    t.match(page.text, '](../README.md', `${page.path} links back to the README`);
  }
});

t.test('the check fails on a missing file, a missing heading and a way out of the tree', async (t) => {
  t.match(problem({ page: 'README.md', target: 'docs/nothing.md' }), /does not exist/);
  t.match(problem({ page: 'docs/api.md', target: 'sending.md#no-such-heading' }), /has no heading/);
  t.match(problem({ page: 'docs/api.md', target: '#no-such-heading' }), /has no heading/);
  t.match(problem({ page: 'docs/api.md', target: '../../shared/spec/interface.md' }), /leaves the repository/);
  t.equal(problem({ page: 'docs/api.md', target: '#what-errors-can-i-get' }), undefined);
});

t.test('the README stays short: at most 200 lines', async (t) => {
  const lines = pages().find((p) => p.path === 'README.md')!.text.split('\n').length;
  t.ok(lines <= 200, `README.md has ${lines} lines`);
});
