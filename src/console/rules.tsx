// Keyword rules: the list (GET /api/rules, oldest first: the order matching tries them in),
// add one (POST /api/rules; the gateway's 400 or 409 message shown as it comes) and remove
// one (DELETE /api/rules/:id) after the confirmation (list and actions: list-actions.ts); what
// an add answers (a refusal, or that it was added) is shown just above the form's button and
// scrolled into view (ui.tsx FormAnswer), not above a list that pushes it out of sight.
// Keywords, replies and numbers are text in <bdi>, their invisible and direction characters
// shown as markers such as ⟨U+202E⟩ the way Conversations shows them: what a reply will send.
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { visible, visibleText } from './conversations.js';
import { useListActions } from './list-actions.js';
import { Confirm, ErrorLine, FormAnswer, Note, type ViewProps } from './ui.js';

/** A rule as GET /api/rules gives it. */
interface Rule {
  id: string;
  keyword: string;
  match: 'exact' | 'prefix';
  reply: string;
  from: string[] | null;
  createdAt: string;
}

/** The numbers typed in, comma-separated; undefined (anyone) when none. */
function numbersOf(text: string): string[] | undefined {
  const numbers = text
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  return numbers.length > 0 ? numbers : undefined;
}

function RuleList({
  rules,
  busy,
  onRemove,
}: {
  rules: Rule[] | undefined;
  busy: boolean;
  onRemove: (r: Rule) => void;
}) {
  return (
    <ul class="list" aria-label="Rules">
      {rules?.map((r) => (
        <li key={r.id} class="item">
          <div class="meta">
            <bdi class="to">{visible(r.keyword)}</bdi>{' '}
            <span class="muted">{r.match === 'exact' ? 'exact match' : 'prefix match'}</span>{' '}
            <span class="muted">
              {'from '}
              {r.from ? <bdi>{r.from.map(visible).join(', ')}</bdi> : 'anyone'}
            </span>
          </div>
          {r.reply === '' ? (
            <p class="muted">No reply: an event only.</p>
          ) : (
            <bdi class="body">{visibleText(r.reply)}</bdi>
          )}
          <button
            type="button"
            class="secondary"
            disabled={busy}
            onClick={() => onRemove(r)}
            aria-label={`Remove the rule ${visible(r.keyword)}`}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  );
}

function RuleForm({
  busy,
  onAdd,
  answer,
}: {
  busy: boolean;
  onAdd: (body: object, reset: () => void) => void;
  answer: ComponentChildren;
}) {
  const [keyword, setKeyword] = useState('');
  const [match, setMatch] = useState('exact');
  const [reply, setReply] = useState('');
  const [from, setFrom] = useState('');
  const reset = () => {
    setKeyword('');
    setReply('');
    setFrom('');
  };
  const submit = (e: Event) => {
    e.preventDefault();
    onAdd({ keyword: keyword.trim(), match, reply, from: numbersOf(from) }, reset);
  };
  return (
    <form onSubmit={submit} class="stack">
      <label for="rule-keyword">Keyword (1 to 20 letters or digits, any case)</label>
      <input id="rule-keyword" autocomplete="off" value={keyword} onInput={(e) => setKeyword(e.currentTarget.value)} />
      <label for="rule-match">Match</label>
      <select id="rule-match" value={match} onChange={(e) => setMatch(e.currentTarget.value)}>
        <option value="exact">exact: the whole text is the keyword</option>
        <option value="prefix">prefix: the text begins with the keyword</option>
      </select>
      <label for="rule-reply">Reply (empty: no reply, an event only)</label>
      <textarea id="rule-reply" rows={3} value={reply} onInput={(e) => setReply(e.currentTarget.value)} />
      <label for="rule-from">Only from these numbers (comma-separated; empty: anyone)</label>
      <input id="rule-from" autocomplete="off" value={from} onInput={(e) => setFrom(e.currentTarget.value)} />
      {answer}
      <button type="submit" disabled={busy}>
        Add rule
      </button>
    </form>
  );
}

export function Rules({ call }: ViewProps) {
  const { items: rules, error, note, busy, act } = useListActions<Rule>(call, '/api/rules');
  const [asking, setAsking] = useState<Rule>();
  /** Whether the last answer is the form's (shown in it) or the list's (shown above it). */
  const [byForm, setByForm] = useState(false);
  const add = (body: object, reset: () => void) => {
    setByForm(true);
    void act(async () => {
      const r = await call<{ data: Rule }>('POST', '/api/rules', body);
      reset();
      return `Added the rule ${visible(r.data.keyword)}.`;
    });
  };
  const remove = (r: Rule) => {
    setAsking(undefined);
    setByForm(false);
    void act(async () => {
      await call('DELETE', `/api/rules/${encodeURIComponent(r.id)}`);
      return `Removed the rule ${visible(r.keyword)}.`;
    });
  };
  return (
    <section>
      <h1>Keyword rules</h1>
      <p class="muted">
        A received SMS that matches a rule gets its reply through the queue; the oldest matching rule wins.
      </p>
      {!byForm && <ErrorLine text={error} />}
      {!byForm && note && <Note>{note}</Note>}
      {rules && rules.length === 0 && <p>No rule.</p>}
      <RuleList rules={rules} busy={busy} onRemove={setAsking} />
      {asking && (
        <Confirm
          question={`Remove the rule ${visible(asking.keyword)}? Received SMS no longer get its reply.`}
          action="Remove the rule"
          onConfirm={() => remove(asking)}
          onCancel={() => setAsking(undefined)}
        />
      )}
      <h2>Add a rule</h2>
      <RuleForm busy={busy} onAdd={add} answer={byForm && <FormAnswer error={error} note={note} />} />
    </section>
  );
}
