// useDebounced: a value that follows another once it has stopped changing for a while (a
// search typed letter by letter is asked of the gateway once, not once a letter).
import { useEffect, useState } from 'preact/hooks';

export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
