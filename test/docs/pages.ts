// The documentation pages the tests in test/docs read: README.md, CONTRIBUTING.md,
// CHANGELOG.md and docs/*.md, with their headings' anchors as GitHub makes them.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/paths.js';

export interface Page {
  /** Path from the repository root, with forward slashes. */
  path: string;
  text: string;
}

export function pages(): Page[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
  return ['README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', ...docs].map((path) => ({ path, text: readFileSync(join(ROOT, path), 'utf8') }));
}

/** The text outside fenced code blocks (a `#` line in a block is no heading). */
export function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to dashes. */
export function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor of a page: its headings' slugs, a repeated one suffixed -1, -2 ... */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const base = slug(m[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** The fenced blocks of a page with the given info string (sh, json, ...). */
export function blocks(text: string, info: string): string[] {
  return [...text.matchAll(new RegExp('^```' + info + '\\n([\\s\\S]*?)^```', 'gm'))].map((m) => m[1]!);
}
