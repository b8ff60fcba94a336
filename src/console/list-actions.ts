// A view's list that the user changes (webhook targets, keyword rules): the list read from
// the gateway and polled, and one action at a time (busy while it runs), whose answer is
// shown as a note and after which the list is read again; an error from either is shown.
import { useState } from 'preact/hooks';
import { describe } from './api.js';
import { usePoll } from './poll.js';
import type { Call } from './ui.js';

export function useListActions<T>(call: Call, path: string) {
  const [items, setItems] = useState<T[]>();
  const [error, setError] = useState<string>();
  const [note, setNote] = useState<string>();
  const [busy, setBusy] = useState(false);
  const load = async () => {
    try {
      setItems((await call<{ data: T[] }>('GET', path)).data);
    } catch (err) {
      setError(describe(err));
    }
  };
  usePoll(load, []);
  /** Runs one action; its answer is the note shown. */
  const act = async (what: () => Promise<string>) => {
    setBusy(true);
    setError(undefined);
    setNote(undefined);
    try {
      const answer = await what();
      await load();
      setNote(answer); // after the list it speaks of has changed, so a view can scroll it into sight
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return { items, error, note, busy, act };
}
