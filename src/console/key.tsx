// Key: rotate the API key (POST /api/key/rotate, after a confirmation). The new key is
// shown once; the console then forgets the old one and asks for the new one.
import { useState } from 'preact/hooks';
import { describe } from './api.js';
import { ErrorLine, type ViewProps } from './ui.js';

export function Key({ call, onRotated }: ViewProps & { onRotated: (newKey: string) => void }) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const rotate = async () => {
    try {
      const r = await call<{ data: { apiKey: string } }>('POST', '/api/key/rotate');
      onRotated(r.data.apiKey);
    } catch (err) {
      setError(describe(err));
      setConfirming(false);
    }
  };
  return (
    <section>
      <h1>API key</h1>
      <p>
        Rotating makes a new key: every client using the old one (scripts, Home Assistant, this console) is refused from
        the next request on.
      </p>
      <ErrorLine text={error} />
      {!confirming ? (
        <button type="button" onClick={() => setConfirming(true)}>
          Rotate the key…
        </button>
      ) : (
        <div class="row">
          <button type="button" class="danger" onClick={() => void rotate()}>
            Yes, rotate it now
          </button>
          <button type="button" class="secondary" onClick={() => setConfirming(false)}>
            Keep the current key
          </button>
        </div>
      )}
    </section>
  );
}
