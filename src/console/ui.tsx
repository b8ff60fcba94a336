// Small pieces every view uses: how a call is made (Call), an error line, a form's answer
// shown in the form, times as text, the confirmation a destructive action asks first.
// Everything from the gateway is rendered as text children: Preact escapes it.
import type { ComponentChildren } from 'preact';
import { useEffect, useLayoutEffect, useRef } from 'preact/hooks';

export type Call = <T>(method: string, path: string, body?: unknown) => Promise<T>;

export interface ViewProps {
  call: Call;
}

export function ErrorLine({ text }: { text: string | undefined }) {
  return text ? (
    <p class="error" role="alert">
      {text}
    </p>
  ) : null;
}

export function Note({ children }: { children: ComponentChildren }) {
  return (
    <p class="note" role="status">
      {children}
    </p>
  );
}

/**
 * What an action answers (a refusal, or what it did) where it was done, e.g. just above a
 * form's button, scrolled into view as it appears: in the same task as the DOM change, since
 * the note comes after the list above has grown by what was added (list-actions.ts).
 */
export function FormAnswer({ error, note }: { error: string | undefined; note: string | undefined }) {
  const box = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    if (error || note) box.current?.scrollIntoView({ block: 'nearest' });
  }, [error, note]);
  return (
    <div ref={box}>
      <ErrorLine text={error} />
      {note && <Note>{note}</Note>}
    </div>
  );
}

export function when(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function Field({ label, value }: { label: string; value: ComponentChildren }) {
  return (
    <div class="field">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * Asks before a destructive action: a modal <dialog> (focus kept inside, Escape or "Keep it"
 * says no; "Keep it" has the focus first, so a stray Enter destroys nothing).
 */
export function Confirm({
  question,
  action,
  onConfirm,
  onCancel,
}: {
  question: string;
  action: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    dialog.current?.showModal();
    keep.current?.focus();
  }, []);
  return (
    <dialog
      ref={dialog}
      class="confirm"
      aria-labelledby="confirm-question"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <p id="confirm-question">{question}</p>
      <div class="row">
        <button type="button" class="danger" onClick={onConfirm}>
          {action}
        </button>
        <button type="button" class="secondary" ref={keep} onClick={onCancel}>
          Keep it
        </button>
      </div>
    </dialog>
  );
}
