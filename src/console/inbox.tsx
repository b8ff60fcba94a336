// Inbox: received SMS (GET /api/inbox, the newest 100) grouped by sender, newest group
// first. Sender, contact name and text are attacker-controlled: rendered as text only.
import { useState } from 'preact/hooks';
import type { InboxRecord } from '../store/inbox.js';
import { ApiProblem, describe } from './api.js';
import { usePoll } from './poll.js';
import { ErrorLine, when, type ViewProps } from './ui.js';

/** The same sender however it was written: spaces, dashes, dots, parentheses and a leading + ignored. */
const senderKey = (from: string | null) =>
  (from ?? '')
    .replace(/[\s\-.()]/g, '')
    .replace(/^\+/, '')
    .toLowerCase();

export function groupBySender(rows: InboxRecord[]): { key: string; from: string; contact: string | null; messages: InboxRecord[] }[] {
  const groups = new Map<string, { key: string; from: string; contact: string | null; messages: InboxRecord[] }>();
  for (const r of rows) {
    const key = senderKey(r.from);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, from: r.from ?? 'unknown sender', contact: r.contact, messages: [] }));
    g.contact ??= r.contact;
    g.messages.push(r);
  }
  return [...groups.values()];
}

export function Inbox({ call }: ViewProps) {
  const [rows, setRows] = useState<InboxRecord[]>();
  const [error, setError] = useState<string>();
  const [disabled, setDisabled] = useState<string>();
  usePoll(async () => {
    try {
      setRows((await call<{ data: InboxRecord[] }>('GET', '/api/inbox?limit=100')).data);
      setError(undefined);
      setDisabled(undefined);
    } catch (err) {
      if (err instanceof ApiProblem && err.problem.kind === 'error' && err.problem.code === 'inbox_disabled') setDisabled(err.problem.message);
      else setError(describe(err));
    }
  }, []);
  return (
    <section>
      <h1>Inbox</h1>
      <ErrorLine text={error} />
      {disabled && <p class="note">{disabled}</p>}
      {rows && rows.length === 0 && <p>No SMS received yet.</p>}
      {rows &&
        groupBySender(rows).map((g) => (
          <section key={g.key} class="group" aria-label={`Messages from ${g.from}`}>
            <h2>
              <span class="to">{g.from}</span>
              {g.contact && <span class="muted"> ({g.contact})</span>}
            </h2>
            <ul class="list">
              {g.messages.map((m) => (
                <li key={m.id} class="item">
                  <div class="meta muted">{when(m.receivedAt)}</div>
                  <p class="body">{m.body}</p>
                </li>
              ))}
            </ul>
          </section>
        ))}
    </section>
  );
}
