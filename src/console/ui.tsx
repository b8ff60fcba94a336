// Small pieces every view uses: how a call is made (Call), an error line, times as text.
// Everything from the gateway is rendered as text children: Preact escapes it.
import type { ComponentChildren } from 'preact';

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
