// The History's and the Queue's list of messages: one line per message on a desktop (time,
// number, status, the start of the text, tags), two on a phone; a click (or Enter) on a line
// opens its details just below it (message-details.tsx), again closes them. The keyboard moves
// between lines with j/k or the arrow keys (one line is in the Tab order: the one last used).
import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import type { MessageRecord } from '../store/message-record.js';
import { TagChips } from './chips.js';
import { visible, visibleText } from './conversations.js';
import { MessageDetails } from './message-details.js';

/** A message as the console reads it: the record, with `origin` when the gateway sends one. */
export type ConsoleMessage = MessageRecord & { origin?: string | null };

/**
 * A time on one short line: the hour alone today, with the day otherwise; `phone`: the day
 * alone on another day (the full time is in the tooltip and the details).
 */
function shortTime(iso: string, phone = false): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const hm: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit' };
  const day: Intl.DateTimeFormatOptions = { month: 'short', day: 'numeric' };
  if (d.toDateString() === new Date().toDateString()) return d.toLocaleTimeString(undefined, hm);
  return d.toLocaleString(undefined, phone ? day : { ...hm, ...day });
}

/** The line's time: the desktop's and the phone's form (one shown by the stylesheet), "next" for the queue's next. */
function LineTime({ at }: { at: string | null }) {
  if (at === null) {
    return (
      <span class="msg-time" title="As soon as the pace allows">
        next
      </span>
    );
  }
  return (
    <span class="msg-time" title={new Date(at).toLocaleString()}>
      <span class="wide-only">{shortTime(at)}</span>
      <span class="phone-only">{shortTime(at, true)}</span>
    </span>
  );
}

/** The line's keys: j / ArrowDown the next line, k / ArrowUp the one before, Home and End the ends. */
const STEPS: Record<string, (i: number, n: number) => number> = {
  j: (i) => i + 1,
  ArrowDown: (i) => i + 1,
  k: (i) => i - 1,
  ArrowUp: (i) => i - 1,
  Home: () => 0,
  End: (_i, n) => n - 1,
};

/** One message's line: a button holding time, number, status, the text's start and the tags. */
function Line(p: {
  m: ConsoleMessage;
  /** The time the line shows (null: the queue's next). */
  at: string | null;
  open: boolean;
  /** The line in the Tab order. */
  tab: boolean;
  onToggle: (id: string) => void;
  onFocus: (id: string) => void;
}) {
  const { m, at: time, open, tab, onToggle, onFocus } = p;
  return (
    <button
      type="button"
      class={Object.keys(m.tags).length === 0 ? 'msg-line no-tags' : 'msg-line'}
      aria-expanded={open}
      aria-controls={open ? `details-${m.id}` : undefined}
      data-id={m.id}
      tabIndex={tab ? 0 : -1}
      onClick={() => onToggle(m.id)}
      onFocus={() => onFocus(m.id)}
    >
      <LineTime at={time} />
      <bdi class="msg-to">{visible(m.to)}</bdi>
      <span class="msg-status">
        <span class={`badge badge-${m.status}`}>{m.status}</span>
        {m.reason && <span class="muted"> {m.reason.replaceAll('_', ' ')}</span>}
      </span>
      <bdi class="msg-text">{visibleText(m.body)}</bdi>
      <span class="msg-tags">
        <TagChips tags={m.tags} linked={false} />
      </span>
    </button>
  );
}

export function MessageList(p: {
  messages: ConsoleMessage[];
  /** Which time the line shows (the history: when it was accepted; the queue: when it is due, null: next). */
  timeOf: (m: ConsoleMessage) => string | null;
  label: string;
  /** A control after a line (the queue's Cancel), outside the line's button. */
  after?: (m: ConsoleMessage) => ComponentChildren;
}) {
  const { messages, timeOf, label, after } = p;
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [cursor, setAt] = useState<string>();
  const list = useRef<HTMLUListElement>(null);
  const tabbed = messages.some((m) => m.id === cursor) ? cursor : messages[0]?.id;
  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const lines = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('.msg-line') ?? [])];
  /** Closes the details from their button: the focus goes back to the line. */
  const close = (id: string) => {
    toggle(id);
    lines()
      .find((b) => b.dataset.id === id)
      ?.focus();
  };
  const onKeyDown = (e: KeyboardEvent) => {
    const step = STEPS[e.key];
    const all = lines();
    const at = all.indexOf(e.target as HTMLButtonElement);
    if (!step || at < 0 || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    all[Math.max(0, Math.min(all.length - 1, step(at, all.length)))]?.focus();
  };
  return (
    <ul class="list msgs" aria-label={label} ref={list} onKeyDown={onKeyDown}>
      {messages.map((m) => (
        <li key={m.id} class={after ? 'msg msg-with-action' : 'msg'}>
          <Line m={m} at={timeOf(m)} open={open.has(m.id)} tab={m.id === tabbed} onToggle={toggle} onFocus={setAt} />
          {after?.(m)}
          {open.has(m.id) && <MessageDetails message={m} onClose={() => close(m.id)} />}
        </li>
      ))}
    </ul>
  );
}
