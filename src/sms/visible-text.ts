// The one rule of "text that shows": a message needs at least one character that displays
// something. Characters that display nothing are the Unicode categories Cc (controls: NUL,
// tab, DEL, the C1 controls), Cf (format: ZWSP-like joiners, BOM, soft hyphen, bidi marks,
// tags), Z (Zs spaces such as NBSP, Zl U+2028, Zp U+2029), M (combining marks, which only
// show on a base character), and Unicode's Default_Ignorable_Code_Point (the same idea for
// the rest: Hangul fillers, variation selectors, U+034F). Any other character counts as
// visible: letters, digits, punctuation, symbols, emoji, private-use and unassigned code
// points (a newer emoji than this Node knows), so a base character with its marks is fine.
const INVISIBLE_ONLY = /^[\p{Cc}\p{Cf}\p{Z}\p{M}\p{Default_Ignorable_Code_Point}]*$/u;

/** True when the text has at least one character that displays something. */
export function hasVisibleCharacter(text: string): boolean {
  return !INVISIBLE_ONLY.test(text);
}
