// usePoll: runs a load now, then every few seconds while the page is visible (and at once
// when it becomes visible again); never two at a time; stops when the view goes away.
import { useEffect, useRef } from 'preact/hooks';

export const POLL_MS = 4000;

export function usePoll(load: () => Promise<void>, deps: unknown[], ms = POLL_MS) {
  const latest = useRef(load);
  latest.current = load;
  useEffect(() => {
    let busy = false;
    let stopped = false;
    const run = async () => {
      if (busy || stopped || document.visibilityState !== 'visible') return;
      busy = true;
      try {
        await latest.current();
      } catch {
        // the view shows its own error; the next round tries again
      } finally {
        busy = false;
      }
    };
    void run();
    const timer = setInterval(() => void run(), ms);
    const onVisible = () => void run();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stopped = true;
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
    // The effect reruns when the caller's own `deps` change (the caller names them, as with useEffect).
  }, deps);
}
