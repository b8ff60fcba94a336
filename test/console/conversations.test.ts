// The console's threads (src/console/conversations.ts): one per number, oldest first inside;
// a reply dated in the second its question was sent in (the phone's dates have no
// milliseconds) shows after the question, not above it.
import t from 'tap';
import { buildThreads, visible, visibleText } from '../../src/console/conversations.js';
import type { InboxRecord } from '../../src/store/inbox.js';
import type { MessageRecord } from '../../src/store/message-record.js';

const sent = (id: string, to: string, createdAt: string) =>
  ({ id, to, createdAt, body: id }) as unknown as MessageRecord;
const received = (smsId: number, from: string, receivedAt: string) =>
  ({ smsId, from, receivedAt, contact: null, body: String(smsId) }) as unknown as InboxRecord;

t.test('a reply in the same second as its question comes after it', async (t) => {
  const threads = buildThreads(
    [received(1, '+15550001', '2026-11-27T12:00:05.000Z')],
    [sent('msg_q', '+1 555 0001', '2026-11-27T12:00:05.600Z')],
  );
  t.equal(threads.length, 1, 'one thread: the number compared as the server compares it');
  t.same(
    threads[0]!.entries.map((e) => e.kind),
    ['sent', 'received'],
  );
});

t.test('a received SMS a second earlier stays before', async (t) => {
  const threads = buildThreads(
    [received(1, '+15550001', '2026-11-27T12:00:04.000Z')],
    [sent('msg_q', '+15550001', '2026-11-27T12:00:05.100Z')],
  );
  t.same(
    threads[0]!.entries.map((e) => e.kind),
    ['received', 'sent'],
  );
});

t.test(
  'every invisible character a second "Google" or a hidden mark can hide behind is shown as a marker',
  async (t) => {
    for (const c of [
      '\u00AD',
      '\u034F',
      '\u061C',
      '\u180E',
      '\u2060',
      '\u2061',
      '\u2062',
      '\u2063',
      '\u2064',
      '\u206A',
      '\u206F',
      '\u115F',
      '\u1160',
      '\u3164',
      '\uFFA0',
    ]) {
      const code = c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
      t.equal(visible(`Goo${c}gle`), `Goo⟨U+${code}⟩gle`, `U+${code} in a name`);
      t.equal(visibleText(`Goo${c}gle`), `Goo⟨U+${code}⟩gle`, `U+${code} in a text`);
    }
    t.equal(visibleText('\u2764\uFE0F ok'), '\u2764\uFE0F ok', 'an emoji variation selector stays as it is');
    t.equal(visibleText('\u0915\u094D\u200D\u0937'), '\u0915\u094D\u200D\u0937', 'a joiner inside a script stays');
  },
);
