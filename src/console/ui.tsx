// Small pieces every view uses: how a call is made (Call), an error line, times as text,
// the confirmation a destructive action asks first.
// Everything from the gateway is rendered as text children: Preact escapes it.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

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
export function Confirm({ question, action, onConfirm, onCancel }: { question: string; action: string; onConfirm: () => void; onCancel: () => void }) {
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
