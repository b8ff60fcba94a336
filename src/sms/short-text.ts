// Shortening a made-up SMS to a number of segments, the one way the gateway's own texts are
// cut (the alert receivers' and the e-mail intake's): control characters and runs of white
// space become one space, typographic characters get GSM-7 stand-ins when that makes the
// whole text GSM-7 (sms/gsm-stand-ins.ts), and a text that is too long keeps its longest
// prefix of whole code points that fits, ending in an ellipsis ("..." in GSM-7, else "…").
import { countSegments, isGsm7 } from './segments.js';
import { withStandIns } from './gsm-stand-ins.js';

/** Control characters and runs of white space become one space; a lone surrogate U+FFFD. */
export function tidy(text: string | undefined): string {
  return (text ?? '')
    .toWellFormed()
    .replace(/[\p{Cc}\s]+/gu, ' ')
    .trim();
}

export const fitsIn = (text: string, segments: number) => countSegments(text).segments <= segments;

/** The texts with GSM-7 stand-ins when that makes all of them GSM-7, else as written; and the ellipsis to use. */
export function gsmIfPossible(texts: string[]): { texts: string[]; ellipsis: string } {
  const replaced = texts.map(withStandIns);
  if (isGsm7(replaced.join(''))) return { texts: replaced, ellipsis: '...' };
  return { texts, ellipsis: '\u2026' };
}

/** The longest prefix of `text` (whole code points, ending in `ellipsis`) for which `wrap` fits, or undefined. */
export function shortened(
  text: string,
  ellipsis: string,
  wrap: (part: string) => string,
  segments: number,
): string | undefined {
  // No prefix longer than a full text of `segments` single-byte segments can fit: cut there first.
  const points = Array.from(text).slice(0, segments * 160 + 1);
  let lo = 0; // the longest length known to fit (0: none known)
  let hi = Math.min(points.length, Array.from(text).length - 1); // a shortened text is shorter than the text
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fitsIn(wrap(`${points.slice(0, mid).join('').trimEnd()}${ellipsis}`), segments)) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return undefined;
  return wrap(`${points.slice(0, lo).join('').trimEnd()}${ellipsis}`);
}

/** `text` tidied, in GSM-7 where stand-ins allow, and shortened to at most `segments` segments. */
export function shortText(text: string, segments: number): string {
  const {
    texts: [tidied],
    ellipsis,
  } = gsmIfPossible([tidy(text)]);
  if (fitsIn(tidied!, segments)) return tidied!;
  return shortened(tidied!, ellipsis, (s) => s, segments) ?? '';
}
