// Conversations: received (GET /api/inbox) and sent (GET /api/messages) messages sorted into
// one thread per number, compared the way the server compares them (spaces, dashes, dots,
// parentheses and a leading + ignored), each thread oldest first, threads newest first; and
// the invisible characters an attacker hides in a name, number or text, made visible.
import type { InboxRecord } from '../store/inbox.js';
import type { MessageRecord } from '../store/message-record.js';

export type ThreadEntry =
  { kind: 'received'; at: string; message: InboxRecord } | { kind: 'sent'; at: string; message: MessageRecord };

export interface Thread {
  key: string;
  /** The number (or sender name) as last written: where a reply goes. */
  number: string;
  contact: string | null;
  entries: ThreadEntry[];
  /** The newest entry's time (ISO), '' when none is known. */
  last: string;
}

/** The same number however it was written: spaces, dashes, dots, parentheses and a leading + ignored. */
export const threadKey = (number: string | null) =>
  (number ?? '')
    .replace(/[\s\-.()]/g, '')
    .replace(/^\+/, '')
    .toLowerCase();

function threadOf(threads: Map<string, Thread>, number: string): Thread {
  const key = threadKey(number);
  let thread = threads.get(key);
  if (!thread) {
    thread = { key, number, contact: null, entries: [], last: '' };
    threads.set(key, thread);
  }
  return thread;
}

/**
 * Where an entry sorts: a received SMS's date is to the second (the phone prints no milliseconds), so at the end of
 * that second, after a message sent in it.
 */
export const shownAt = (e: ThreadEntry) => Date.parse(e.at || '0') + (e.kind === 'received' ? 999 : 0);

/** Threads newest first; inside each, entries oldest first (received and sent interleaved). */
export function buildThreads(received: InboxRecord[], sent: MessageRecord[]): Thread[] {
  const threads = new Map<string, Thread>();
  // Both lists come newest first: taken oldest first, messages of the same second keep their order.
  for (const m of [...sent].reverse())
    threadOf(threads, m.to).entries.push({ kind: 'sent', at: m.createdAt, message: m });
  for (const m of [...received].reverse()) {
    const thread = threadOf(threads, m.from ?? 'unknown sender');
    thread.contact ??= m.contact;
    thread.entries.push({ kind: 'received', at: m.receivedAt ?? '', message: m });
  }
  for (const thread of threads.values()) {
    thread.entries.sort((a, b) => shownAt(a) - shownAt(b));
    const newest = thread.entries[thread.entries.length - 1];
    thread.last = newest?.at ?? '';
    // A reply goes to the number as it was last written.
    if (newest) thread.number = newest.kind === 'sent' ? newest.message.to : (newest.message.from ?? thread.number);
  }
  return [...threads.values()].sort((a, b) => Date.parse(b.last || '0') - Date.parse(a.last || '0'));
}

/**
 * Characters that change direction or show nothing: bidi controls and marks (also the Arabic
 * letter mark), zero-width ones, the word joiner and the invisible operators, the soft hyphen,
 * the combining grapheme joiner, the Mongolian vowel separator, Hangul fillers, the BOM.
 */
const INVISIBLE = /[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]|\u034F/g;
const marker = (c: string) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`;

/** A name or number with every invisible character shown as ⟨U+XXXX⟩. */
export const visible = (text: string) => text.replace(INVISIBLE, marker);

const INVISIBLE_ONE =
  /[\u00AD\u061C\u115F\u1160\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFEFF\uFFA0]|\u034F/;
/** Written text: not ASCII and not itself invisible. */
const isScript = (c: string | undefined) => c !== undefined && c.charCodeAt(0) > 0x7f && !INVISIBLE_ONE.test(c);

/**
 * A message text likewise, except a zero-width joiner or non-joiner (U+200D, U+200C) between two
 * non-ASCII characters: that is how emoji sequences and Persian or Indic script are written.
 */
export const visibleText = (text: string) =>
  text.replace(INVISIBLE, (c, at: number) =>
    (c === '\u200D' || c === '\u200C') && isScript(text[at - 1]) && isScript(text[at + 1]) ? c : marker(c),
  );
