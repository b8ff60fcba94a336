// GSM-7 stand-ins for typographic characters: curly quotes, primes and guillemets become
// straight quotes, the dashes and the minus sign a hyphen, the ellipsis three dots, the
// non-breaking and other fixed-width spaces a space. Used only when the WHOLE text is then
// GSM-7 (160 characters a segment instead of 70); a character without a stand-in (Cyrillic,
// most accented letters, emoji) keeps the text UCS-2 as written, so no letter is ever lost.
import { isGsm7 } from './segments.js';

const STAND_INS: Record<string, string> = {
  '\u2018': "'", // left single quotation mark
  '\u2019': "'", // right single quotation mark (also the typographic apostrophe)
  '\u201A': "'", // single low-9 quotation mark
  '\u201B': "'", // single high-reversed-9 quotation mark
  '\u2032': "'", // prime
  '\u2039': "'", // single left-pointing angle quotation mark
  '\u203A': "'", // single right-pointing angle quotation mark
  '\u201C': '"', // left double quotation mark
  '\u201D': '"', // right double quotation mark
  '\u201E': '"', // double low-9 quotation mark
  '\u201F': '"', // double high-reversed-9 quotation mark
  '\u2033': '"', // double prime
  '\u00AB': '"', // left-pointing double angle quotation mark
  '\u00BB': '"', // right-pointing double angle quotation mark
  '\u2010': '-', // hyphen
  '\u2011': '-', // non-breaking hyphen
  '\u2012': '-', // figure dash
  '\u2013': '-', // en dash
  '\u2014': '-', // em dash
  '\u2015': '-', // horizontal bar
  '\u2212': '-', // minus sign
  '\u2026': '...', // horizontal ellipsis
  '\u00A0': ' ', // no-break space
  '\u2007': ' ', // figure space
  '\u202F': ' ', // narrow no-break space
};
for (let c = 0x2000; c <= 0x200a; c++) STAND_INS[String.fromCharCode(c)] = ' '; // en quad .. hair space

const TYPOGRAPHIC = new RegExp(`[${Object.keys(STAND_INS).join('')}]`, 'gu');

/** The text with every typographic character replaced by its GSM-7 stand-in. */
export function withStandIns(text: string): string {
  return text.replace(TYPOGRAPHIC, (c) => STAND_INS[c] ?? c);
}

/** The stand-ins' text when that is GSM-7 as a whole, else the text as written (UCS-2). */
export function gsmWhereAllowed(text: string): string {
  const replaced = withStandIns(text);
  return isGsm7(replaced) ? replaced : text;
}
