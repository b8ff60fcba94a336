// Where the console keeps the key: sessionStorage (this tab only) by default, localStorage
// only when the user ticks "remember on this device". Also reads what the user pastes:
// the key alone, or the start screen's QR code text {"url": ..., "key": ...}.
const NAME = 'sms-gateway-key';
const KEY = /^sk_local_[A-Za-z0-9]{32}$/;

export function storedKey(): string | undefined {
  return sessionStorage.getItem(NAME) ?? localStorage.getItem(NAME) ?? undefined;
}

export function storeKey(key: string, remember: boolean) {
  forgetKey();
  (remember ? localStorage : sessionStorage).setItem(NAME, key);
}

export function forgetKey() {
  sessionStorage.removeItem(NAME);
  localStorage.removeItem(NAME);
}

/** The key in what was pasted, or undefined when it holds none. */
export function keyFromPaste(text: string): string | undefined {
  const t = text.trim();
  if (KEY.test(t)) return t;
  if (!t.startsWith('{')) return undefined;
  try {
    const key = (JSON.parse(t) as { key?: unknown }).key;
    return typeof key === 'string' && KEY.test(key.trim()) ? key.trim() : undefined;
  } catch {
    return undefined;
  }
}
