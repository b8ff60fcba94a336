// Reads a ```sh block of the docs into commands, as a POSIX shell would split them, without
// any shell: words with single and double quotes, `\` line continuations, `$NAME` / `${NAME}`,
// `${NAME:-default}` (a default of plain text, or `~/...`), `$(...)` and a leading `~`,
// commands joined by `&&`, and `NAME=value` lines. Anything else
// (`;`, pipes, redirections, `$?`, backquotes, subshells...) marks its line as shell syntax
// this reader does not run. The comment after a command, and the comment lines right under it,
// are kept as what the docs show that command answers.

/**
 * Part of a word: literal text, a variable (`or`: its `${NAME:-default}`), a command
 * substitution, or `~` (the home).
 */
export type Part = { lit: string } | { var: string; or?: Word } | { subst: Word[] } | { home: true };
export type Word = Part[];

export interface Command {
  /** The command as written, on one line: continuations joined, spaces collapsed, comment dropped. */
  text: string;
  words: Word[];
  /** `NAME=value` alone: a variable the docs define. */
  assigns?: { name: string; value: Word };
  /** Set when the line uses shell syntax this reader does not run: which. */
  unsupported?: string;
  /** Its line's comment and the comment lines right under it (without `#`), joined by newlines. */
  shown: string;
}

const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const OPERATORS = new Set([';', '|', '&', '<', '>', '(', ')', '`']);

/** Collapses a raw slice of the block to the one-line text a skip list can name. */
const oneLine = (raw: string) =>
  raw
    .replace(/\\\n/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

class Reader {
  i = 0;
  readonly s: string;
  constructor(s: string) {
    this.s = s;
  }
  peek(n = 0): string | undefined {
    return this.s[this.i + n];
  }
}

/** A `$...` expansion at the reader (on the `$`; `quoted` inside "..."), or the reason it is not supported. */
function dollar(r: Reader, quoted = false): Part | string {
  r.i++; // the $
  if (r.peek() === '(') {
    let depth = 1;
    const start = ++r.i;
    while (r.i < r.s.length && depth > 0) {
      const c = r.s[r.i]!;
      if (c === "'") {
        const close = r.s.indexOf("'", r.i + 1);
        if (close === -1) return "an unclosed '";
        r.i = close;
      } else if (c === '(') depth++;
      else if (c === ')') depth--;
      r.i++;
    }
    if (depth !== 0) return 'an unclosed $(';
    const inner = parseCommands(r.s.slice(start, r.i - 1));
    if (inner.length !== 1 || inner[0]!.unsupported || inner[0]!.assigns) return 'a $(...) that is not one plain command';
    return { subst: inner[0]!.words };
  }
  const braced = r.peek() === '{';
  if (braced) r.i++;
  NAME.lastIndex = r.i;
  const m = NAME.exec(r.s);
  if (!m) return `$${r.peek() ?? ''}`;
  r.i += m[0].length;
  if (braced) {
    if (r.peek() === ':' && r.peek(1) === '-') return withDefault(r, m[0], quoted);
    if (r.peek() !== '}') return '${...} with an operator';
    r.i++;
  }
  return { var: m[0] };
}

/** `${NAME:-default}` at the reader (on the `:`): a default of plain text or `~/...` (not in "..."), else why not. */
function withDefault(r: Reader, name: string, quoted: boolean): Part | string {
  const close = r.s.indexOf('}', r.i);
  const text = close === -1 ? '' : r.s.slice(r.i + 2, close);
  if (close === -1 || /[$"'`\\{\s]/.test(text)) return '${NAME:-default} with a default that is not plain text';
  r.i = close + 1;
  const home = !quoted && /^~(\/|$)/.test(text);
  const rest = home ? text.slice(1) : text;
  return { var: name, or: [...(home ? [{ home: true as const }] : []), ...(rest ? [{ lit: rest }] : [])] };
}

/** A double-quoted string at the reader (on the `"`): its parts, or the reason it is not supported. */
function doubleQuoted(r: Reader, word: Word): string | undefined {
  r.i++;
  let lit = '';
  const flush = () => {
    if (lit) word.push({ lit });
    lit = '';
  };
  for (;;) {
    const c = r.peek();
    if (c === undefined) return 'an unclosed "';
    if (c === '"') {
      r.i++;
      flush();
      return undefined;
    }
    if (c === '\\' && r.peek(1) !== undefined && '$`"\\\n'.includes(r.peek(1)!)) {
      if (r.peek(1) !== '\n') lit += r.peek(1);
      r.i += 2;
    } else if (c === '$') {
      flush();
      const part = dollar(r, true);
      if (typeof part === 'string') return part;
      word.push(part);
    } else if (c === '`') {
      return 'backquotes';
    } else {
      lit += c;
      r.i++;
    }
  }
}

/** A command of these words: an assignment when it is `NAME=value` alone. */
function commandOf(text: string, words: Word[]): Command {
  const first = words[0]![0];
  const lead = first && 'lit' in first ? first.lit : '';
  const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(lead);
  if (!m) return { text, words, shown: '' };
  if (words.length > 1) return { text, words: [], unsupported: 'an environment prefix (NAME=value command)', shown: '' };
  const rest = lead.slice(m[0].length);
  return { text, words, assigns: { name: m[1]!, value: [...(rest ? [{ lit: rest }] : []), ...words[0]!.slice(1)] }, shown: '' };
}

/** The line from `lineStart` (continuations included) as one command of unsupported syntax, and its end. */
function wholeLine(block: string, lineStart: number, from: number, why: string): { command: Command; end: number } {
  let end = from;
  while (end < block.length && !(block[end] === '\n' && block[end - 1] !== '\\')) end++;
  const line = block.slice(lineStart, end);
  const comment = /\s#\s?(.*)$/.exec(line);
  const text = oneLine(comment ? line.slice(0, comment.index) : line);
  return { command: { text, words: [], unsupported: why, shown: comment?.[1] ?? '' }, end };
}

/** Splits a block (or the inside of a `$(...)`) into commands. */
export function parseCommands(block: string): Command[] {
  const r = new Reader(block);
  const out: Command[] = [];
  let words: Word[] = [];
  let word: Word | null = null;
  let start = 0; // where the current command's text starts
  let lineStart = 0; // where the current line starts (for a line of unsupported syntax)
  let lineFirst = 0; // index in `out` of the first command of the current line
  /** The command that comment lines under it still describe (no blank line since). */
  let describes: Command | undefined;

  const lit = (text: string) => {
    word ??= [];
    const last = word[word.length - 1];
    if (last && 'lit' in last) last.lit += text;
    else word.push({ lit: text });
  };
  const endWord = () => {
    if (word) words.push(word);
    word = null;
  };
  const endCommand = (end: number) => {
    endWord();
    if (words.length > 0) {
      const command = commandOf(oneLine(block.slice(start, end)), words);
      out.push(command);
      describes = command;
    }
    words = [];
  };
  /** Drops the line's commands and keeps the whole line as one command of unsupported syntax. */
  const unsupported = (why: string) => {
    const line = wholeLine(block, lineStart, r.i, why);
    out.length = lineFirst;
    out.push(line.command);
    describes = line.command;
    words = [];
    word = null;
    r.i = line.end;
  };

  while (r.i < block.length) {
    const c = r.peek()!;
    if (c === '\\' && r.peek(1) === '\n') {
      endWord();
      r.i += 2;
    } else if (c === '\\') {
      lit(r.peek(1) ?? '');
      r.i += 2;
    } else if (c === ' ' || c === '\t') {
      endWord();
      r.i++;
    } else if (c === '\n') {
      const blank = words.length === 0 && word === null && block.slice(lineStart, r.i).trim() === '';
      endCommand(r.i);
      if (blank) describes = undefined;
      r.i++;
      start = lineStart = r.i;
      lineFirst = out.length;
    } else if (c === '#' && word === null) {
      const end = block.indexOf('\n', r.i);
      const comment = block.slice(r.i + 1, end === -1 ? block.length : end).replace(/^ /, '');
      const commentOnly = words.length === 0;
      endCommand(r.i);
      if (describes) describes.shown += (describes.shown && commentOnly ? '\n' : '') + comment;
      r.i = end === -1 ? block.length : end;
    } else if (c === "'") {
      const end = block.indexOf("'", r.i + 1);
      if (end === -1) unsupported("an unclosed '");
      else {
        lit(block.slice(r.i + 1, end));
        r.i = end + 1;
      }
    } else if (c === '"') {
      word ??= [];
      const why = doubleQuoted(r, word);
      if (why) unsupported(why);
    } else if (c === '$') {
      const part = dollar(r);
      if (typeof part === 'string') unsupported(part);
      else (word ??= []).push(part);
    } else if (c === '~' && word === null && (r.peek(1) === '/' || r.peek(1) === undefined || /\s/.test(r.peek(1)!))) {
      word = [{ home: true }];
      r.i++;
    } else if (c === '&' && r.peek(1) === '&') {
      endCommand(r.i);
      r.i += 2;
      start = r.i;
    } else if (OPERATORS.has(c)) {
      unsupported(c === '`' ? 'backquotes' : `"${c}"`);
    } else if (word === null && words.length === 0 && /^(case|if|for|while|until|function)\b/.test(block.slice(r.i))) {
      unsupported(`"${/^\w+/.exec(block.slice(r.i))![0]}"`);
    } else {
      lit(c);
      r.i++;
    }
  }
  endCommand(block.length);
  return out;
}
