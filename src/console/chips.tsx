// A message's labels as chips: its tags (key=value; as links, each opens the History
// filtered by that tag: #/history?tag=key:value) and where it came from (its origin, when the
// gateway says). Tags come from API callers and, in a reply's "In reply to", from the message
// it answers: rendered as text in their own direction-isolated boxes.
import { tagHref } from './history-filter.js';
import { visible } from './conversations.js';

/** key=value, its parts isolated (<bdi>), invisible characters shown. */
const TagText = ({ k, v }: { k: string; v: string }) => (
  <>
    <bdi class="iso">{visible(k)}</bdi>=<bdi class="iso">{visible(v)}</bdi>
  </>
);

/** The tags as chips: links to the History filtered by each (`linked`), or plain text (inside a row's button). */
export function TagChips({ tags, linked = true }: { tags: Record<string, string>; linked?: boolean }) {
  const pairs = Object.entries(tags);
  if (pairs.length === 0) return null;
  if (!linked) {
    return (
      <span class="chips">
        {pairs.map(([k, v]) => (
          <span key={k} class="chip">
            <TagText k={k} v={v} />
          </span>
        ))}
      </span>
    );
  }
  return (
    <ul class="chips" aria-label="Its tags">
      {pairs.map(([k, v]) => (
        <li key={k}>
          <a class="chip" href={tagHref(k, v)} title={`Show every message tagged ${k}=${v}`}>
            <TagText k={k} v={v} />
          </a>
        </li>
      ))}
    </ul>
  );
}

/** What sent a message, for people (the record's `origin`). */
const ORIGINS: Record<string, string> = {
  api: 'API',
  queue: 'API (queued)',
  mqtt: 'MQTT',
  smsgate: 'SMSGate API',
  email: 'E-mail',
  alert: 'Alert receiver',
  rule_reply: 'Keyword rule',
  opt_out_reply: 'Opt-out confirmation',
  opt_in_reply: 'Opt-in confirmation',
  help_reply: 'HELP answer',
};

/** The origin as a chip (its name for people, the field's value in a tooltip); nothing when not given. */
export function OriginChip({ origin }: { origin: string | undefined | null }) {
  if (!origin) return null;
  return (
    <span class="chip chip-origin" title={`origin: ${origin}`}>
      {ORIGINS[origin] ?? visible(origin)}
    </span>
  );
}
