// The sign-in view: paste the key (or the QR code's JSON text) in a masked field with a
// show toggle, Enter signs in, optionally remembered on this device; the key is tried on
// GET /api/stats before it is kept.
import { useState } from 'preact/hooks';
import { api, describe } from './api.js';
import { keyFromPaste } from './key-store.js';
import { ErrorLine } from './ui.js';

/** One single-line field (Enter submits the form), masked unless "show" is pressed. */
function KeyField({ text, onText }: { text: string; onText: (text: string) => void }) {
  const [shown, setShown] = useState(false);
  const keyField = {
    id: 'key',
    autocomplete: 'off',
    autocapitalize: 'off',
    spellcheck: false,
    value: text,
    onInput: (e: Event) => onText((e.currentTarget as HTMLInputElement).value),
  } as const;
  return (
    <div class="keyfield">
      {shown ? <input type="text" {...keyField} /> : <input type="password" {...keyField} />}
      <button
        type="button"
        class="secondary"
        aria-pressed={shown}
        aria-label="Show the key"
        onClick={() => setShown(!shown)}
      >
        Show
      </button>
    </div>
  );
}

/** Why the sign-in is shown (signed out, key refused or rotated) and, after a rotation, the new key. */
function LoginNotes({ notice, newKey }: { notice: string | undefined; newKey: string | undefined }) {
  return (
    <>
      {notice && (
        <p class="note" role="status">
          {notice}
        </p>
      )}
      {newKey && (
        <div class="newkey">
          <label for="new-key">The new key (shown once: copy it to your other clients)</label>
          <input id="new-key" readonly value={newKey} onFocus={(e) => e.currentTarget.select()} />
        </div>
      )}
    </>
  );
}

export function Login({
  notice,
  newKey,
  onKey,
}: {
  notice: string | undefined;
  newKey: string | undefined;
  onKey: (key: string, remember: boolean) => void;
}) {
  const [text, setText] = useState('');
  const [remember, setRemember] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (e: Event) => {
    e.preventDefault();
    const key = keyFromPaste(text);
    if (!key) {
      setError(
        'That is not a key: paste the key (sk_local_ and 32 letters or digits) or the QR code text from the start ' +
          'screen.',
      );
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      await api(key, 'GET', '/api/stats');
      onKey(key, remember);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main id="main" class="login">
      <h1>Sign in</h1>
      <LoginNotes notice={notice} newKey={newKey} />
      <form onSubmit={(e) => void submit(e)}>
        <label for="key">API key, or the QR code's text</label>
        <KeyField text={text} onText={setText} />
        <p class="hint">
          The start screen (<code>sms-gateway start</code>) and <code>sms-gateway key show</code> print it.
        </p>
        <div class="check">
          <input
            id="remember"
            type="checkbox"
            checked={remember}
            onChange={(e) => setRemember(e.currentTarget.checked)}
          />
          <label for="remember">Remember on this device</label>
        </div>
        <ErrorLine text={error} />
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
    </main>
  );
}
