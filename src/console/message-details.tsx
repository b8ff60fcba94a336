// One message's details, opened inline below its line in the History or the Queue: every field
// of the record, its tags as chips (each a link to the History filtered by it) and where it
// came from (origin, when the gateway says). Its text and number are rendered as text only.
import type { MessageRecord } from '../store/message-record.js';
import { OriginChip, TagChips } from './chips.js';
import { visible, visibleText } from './conversations.js';
import { Field, when } from './ui.js';

export function MessageDetails(p: {
  /** The record, with `origin` when the gateway sends one. */
  message: MessageRecord & { origin?: string | null };
  onClose: () => void;
}) {
  const { message: m, onClose } = p;
  const tagged = Object.keys(m.tags).length > 0;
  return (
    <div class="details" id={`details-${m.id}`} role="region" aria-label="Message details">
      <h2>Message {m.id}</h2>
      <dl>
        <Field label="To" value={<bdi class="iso">{visible(m.to)}</bdi>} />
        <Field label="Status" value={`${m.status}${m.reason ? ` (${m.reason})` : ''}`} />
        <Field label="Text" value={<bdi class="body">{visibleText(m.body)}</bdi>} />
        <Field label="Tags" value={tagged ? <TagChips tags={m.tags} /> : 'none'} />
        {m.origin && <Field label="Origin" value={<OriginChip origin={m.origin} />} />}
        <Field label="Segments" value={`${m.segments} (${m.encoding}), billed ${m.billedSegments}`} />
        <Field label="SIM" value={String(m.simSlot)} />
        <Field label="From address" value={m.sourceIp} />
        <Field label="Created" value={when(m.createdAt)} />
        <Field label="Updated" value={when(m.updatedAt)} />
        <Field label="Send at" value={when(m.sendAt)} />
        <Field label="Expires" value={when(m.expiresAt)} />
      </dl>
      <button type="button" class="secondary" onClick={onClose}>
        Close details
      </button>
    </div>
  );
}
