// The opt-out keywords (docs/receiving.md, opt-out): which of them a received SMS is, if
// any. The whole text counts, trimmed, in any case, with trailing punctuation ignored:
// "Stop!" is STOP, "stop by later", "STOPPED" and "S TOP" are nothing. Pure: no state.

export type OptOutKeyword = 'opt_out' | 'opt_in' | 'help';

const KEYWORDS: ReadonlyMap<string, OptOutKeyword> = new Map([
  ...['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'].map(
    (k) => [k, 'opt_out'] as const,
  ),
  ...['START', 'UNSTOP'].map((k) => [k, 'opt_in'] as const),
  ...['HELP', 'INFO'].map((k) => [k, 'help'] as const),
]);

/** Trailing punctuation (any Unicode punctuation) and spaces after the word. */
const TRAILING = /[\p{P}\s]+$/u;

/** The keyword a received text is, or null: whole text, trimmed, any case, trailing punctuation ignored. */
export function optOutKeyword(text: string): OptOutKeyword | null {
  const word = text.trim().replace(TRAILING, '').toUpperCase();
  return KEYWORDS.get(word) ?? null;
}
