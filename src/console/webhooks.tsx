// Webhook targets: the list (both sources), add one, remove one registered over the API
// (after a confirmation), and send the test event to every target with each answer shown.
// What an action answers is shown where it was done (ui.tsx FormAnswer): an add's in the
// form, the test's beside its button, scrolled into view, not above a list that pushes it
// out of sight on a phone; a removal's above the list. URLs are text, never links, in <bdi>,
// their invisible and direction characters shown as markers such as ⟨U+202E⟩.
import { useState } from 'preact/hooks';
import type { WebhookTarget } from '../events/targets.js';
import type { WebhookTestResult } from '../events/ping-targets.js';
import { visible } from './conversations.js';
import { useListActions } from './list-actions.js';
import { Confirm, ErrorLine, FormAnswer, Note, when, type ViewProps } from './ui.js';

/** The targets, each with its source and state; one registered over the API can be removed. */
/** Where a target comes from, in words. */
const sourceOf = (source: string) => (source === 'env' ? 'from SMS_GATEWAY_WEBHOOK_URLS' : 'added over the API');

function TargetList({
  targets,
  busy,
  onRemove,
}: {
  targets: WebhookTarget[] | undefined;
  busy: boolean;
  onRemove: (t: WebhookTarget) => void;
}) {
  return (
    <ul class="list">
      {targets?.map((t) => (
        <li key={t.id} class="item">
          <div class="meta">
            <bdi class="to">{visible(t.url)}</bdi>{' '}
            <span class="muted">{`${t.id}, ${sourceOf(t.source)}, since ${when(t.createdAt)}`}</span>
            {t.disabled && <span class="badge badge-failing">switched off (410)</span>}
          </div>
          {t.source === 'api' && (
            <button
              type="button"
              class="secondary"
              disabled={busy}
              onClick={() => onRemove(t)}
              aria-label={`Remove ${t.id}`}
            >
              Remove
            </button>
          )}
        </li>
      ))}
    </ul>
  );
}

/** Each target's answer to the test event. */
function TestResults({ results }: { results: WebhookTestResult[] }) {
  return (
    <ul class="list">
      {results.map((r) => (
        <li key={r.id} class="item">
          <span class={`badge badge-${r.delivered ? 'ok' : 'failing'}`}>
            {r.delivered ? 'delivered' : 'not delivered'}
          </span>{' '}
          <bdi class="to">{visible(r.url)}</bdi>
          <span class="muted">{r.error ? ` ${visible(r.error)}` : r.status === null ? '' : ` HTTP ${r.status}`}</span>
        </li>
      ))}
    </ul>
  );
}

export function Webhooks({ call }: ViewProps) {
  const { items: targets, error, note, busy, act } = useListActions<WebhookTarget>(call, '/api/webhooks');
  const [url, setUrl] = useState('');
  const [tests, setTests] = useState<WebhookTestResult[]>();
  const [asking, setAsking] = useState<WebhookTarget>();
  /** Where the last answer is shown: above the list (a removal, a failed read), in the form, or by the test button. */
  const [answerAt, setAnswerAt] = useState<'list' | 'form' | 'test'>('list');
  const answer = (at: typeof answerAt) => answerAt === at && <FormAnswer error={error} note={note} />;
  const add = (e: Event) => {
    e.preventDefault();
    setAnswerAt('form');
    void act(async () => {
      const r = await call<{ data: WebhookTarget }>('POST', '/api/webhooks', { url: url.trim() });
      setUrl('');
      return `Added ${r.data.id}.`;
    });
  };
  const remove = (t: WebhookTarget) => {
    setAsking(undefined);
    setAnswerAt('list');
    void act(async () => {
      await call('DELETE', `/api/webhooks/${encodeURIComponent(t.id)}`);
      return `Removed ${t.id}.`;
    });
  };
  const test = () => {
    setAnswerAt('test');
    void act(async () => {
      const r = await call<{ data: WebhookTestResult[] }>('POST', '/api/webhooks/test');
      setTests(r.data);
      return `Test event sent to ${r.data.length} target${r.data.length === 1 ? '' : 's'}.`;
    });
  };
  return (
    <section>
      <h1>Webhook targets</h1>
      {answerAt === 'list' && <ErrorLine text={error} />}
      {answerAt === 'list' && note && <Note>{note}</Note>}
      {targets && targets.length === 0 && <p>No webhook target.</p>}
      <TargetList targets={targets} busy={busy} onRemove={setAsking} />
      {asking && (
        <Confirm
          question={`Remove the target ${asking.id} (${visible(asking.url)})? It gets no more events.`}
          action="Remove the target"
          onConfirm={() => remove(asking)}
          onCancel={() => setAsking(undefined)}
        />
      )}
      <form onSubmit={add} class="stack">
        <label for="hook-url">New target URL (http:// or https://)</label>
        <input id="hook-url" type="url" autocomplete="off" value={url} onInput={(e) => setUrl(e.currentTarget.value)} />
        {answer('form')}
        <button type="submit" disabled={busy}>
          Add target
        </button>
      </form>
      <h2>Test</h2>
      <button type="button" disabled={busy} onClick={test}>
        Send the test event to every target
      </button>
      {answer('test')}
      {tests && <TestResults results={tests} />}
    </section>
  );
}
