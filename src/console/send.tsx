// Send: one or several recipients, the text with a live segment and encoding counter (the
// server's own rules, sms/segments.ts), send now (one recipient: POST /api/sms/send;
// several: POST /api/messages) or queue for later (POST /api/messages with sendAt).
import { useState } from 'preact/hooks';
import { countSegments } from '../sms/segments.js';
import { describe } from './api.js';
import { ErrorLine, Note, type ViewProps } from './ui.js';

/** Recipients one per line or separated by commas or semicolons. */
export function recipientsOf(text: string): string[] {
  return text
    .split(/[\n,;]+/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Now, or queued for a time of this device's clock. */
function WhenField(p: {
  later: boolean;
  sendAt: string;
  onLater: (later: boolean) => void;
  onSendAt: (at: string) => void;
}) {
  const { later, sendAt, onLater, onSendAt } = p;
  return (
    <fieldset>
      <legend>When</legend>
      <div class="check">
        <input type="radio" id="when-now" name="when" checked={!later} onChange={() => onLater(false)} />
        <label for="when-now">Send now</label>
      </div>
      <div class="check">
        <input type="radio" id="when-later" name="when" checked={later} onChange={() => onLater(true)} />
        <label for="when-later">Queue for later</label>
      </div>
      {later && (
        <>
          <label for="send-at">Send at (this device's time)</label>
          <input id="send-at" type="datetime-local" value={sendAt} onInput={(e) => onSendAt(e.currentTarget.value)} />
        </>
      )}
    </fieldset>
  );
}

/** One recipient now: POST /api/sms/send; several, or later: POST /api/messages. The result, in words. */
async function sendOrQueue(
  call: ViewProps['call'],
  recipients: string[],
  message: string,
  at: string | undefined,
): Promise<string> {
  if (at === undefined && recipients.length === 1) {
    const r = await call<{ messageId: string; segments: number; warning?: string }>('POST', '/api/sms/send', {
      to: recipients[0],
      message,
    });
    return (
      `Sent: ${r.messageId} (${r.segments} ` +
      `segment${r.segments === 1 ? '' : 's'}).${r.warning ? ` ${r.warning}` : ''}`
    );
  }
  const r = await call<{ data: { id: string }[] }>('POST', '/api/messages', {
    to: recipients.length === 1 ? recipients[0] : recipients,
    message,
    ...(at ? { sendAt: at } : {}),
  });
  return (
    `Queued ${r.data.length} message${r.data.length === 1 ? '' : 's'}` +
    (at ? ` for ${new Date(at).toLocaleString()}` : '') +
    `: ${r.data.map((m) => m.id).join(', ')}.`
  );
}

export function Send({ call }: ViewProps) {
  const [to, setTo] = useState('');
  const [message, setMessage] = useState('');
  const [later, setLater] = useState(false);
  const [sendAt, setSendAt] = useState('');
  const [result, setResult] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const info = countSegments(message);

  const submit = async (e: Event) => {
    e.preventDefault();
    const recipients = recipientsOf(to);
    setResult(undefined);
    setError(undefined);
    if (recipients.length === 0) return setError('Enter at least one recipient.');
    let at: string | undefined;
    if (later) {
      const d = new Date(sendAt);
      if (!sendAt || Number.isNaN(d.getTime())) return setError('Choose when to send it.');
      at = d.toISOString();
    }
    setBusy(true);
    try {
      setResult(await sendOrQueue(call, recipients, message, at));
      setMessage('');
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section>
      <h1>Send</h1>
      <form onSubmit={(e) => void submit(e)} class="stack">
        <label for="to">Recipients (one per line, or separated by commas)</label>
        <textarea id="to" rows={2} autocomplete="off" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
        <label for="message">Message</label>
        <textarea
          id="message"
          rows={5}
          value={message}
          onInput={(e) => setMessage(e.currentTarget.value)}
          aria-describedby="counter"
        />
        <p id="counter" class="hint" aria-live="polite">
          {`${info.units} ${info.encoding === 'gsm7' ? 'GSM-7 characters' : 'UCS-2 units'}, ${info.segments} ` +
            `segment${info.segments === 1 ? '' : 's'} (${info.encoding === 'gsm7' ? 'GSM-7' : 'UCS-2'}, ` +
            `${info.perSegment} per segment)`}
        </p>
        <WhenField later={later} sendAt={sendAt} onLater={setLater} onSendAt={setSendAt} />
        <ErrorLine text={error} />
        {result && <Note>{result}</Note>}
        <button type="submit" disabled={busy}>
          {later ? 'Queue' : 'Send'}
        </button>
      </form>
    </section>
  );
}
