// Counts how many SMS segments a message needs: picks GSM 03.38 7-bit or
// UCS-2 encoding and packs the text greedily into 160/153 septets or 70/67
// UTF-16 code units per segment, never splitting an escape pair or a
// surrogate pair across segments.
import type { Encoding } from '../store/message-record.js';

export interface SegmentInfo {
  encoding: Encoding;
  segments: number; // number of SMS segments
  units: number; // septets for gsm7, UTF-16 code units for ucs2 (total, before splitting)
  perSegment: number; // capacity per segment that applied: 160/153 or 70/67
}

const GSM_SINGLE = 160;
const GSM_MULTI = 153;
const UCS2_SINGLE = 70;
const UCS2_MULTI = 67;

// GSM 03.38 basic character set in code-point order 0x00..0x7F. 0x1B is the
// escape to the extension table, not a character, so it is left out below.
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅå' +
  'Δ_ΦΓΛΩΠΨΣΘΞ\u001bÆæßÉ' +
  ' !"#¤%&\'()*+,-./' +
  '0123456789:;<=>?' +
  '¡ABCDEFGHIJKLMNO' +
  'PQRSTUVWXYZÄÖÑÜ§' +
  '¿abcdefghijklmno' +
  'pqrstuvwxyzäöñüà';

// Extension table: each is sent as ESC + char, i.e. 2 septets.
const GSM_EXTENDED = '\f^{}\\[~]|€';

// Septet cost per UTF-16 code unit; absent means "not GSM-7". Every GSM
// character is in the BMP, so one code unit is always one character here.
const SEPTETS = new Map<number, 1 | 2>();
for (let i = 0; i < GSM_BASIC.length; i++) {
  const code = GSM_BASIC.charCodeAt(i);
  if (code !== 0x1b) SEPTETS.set(code, 1);
}
for (let i = 0; i < GSM_EXTENDED.length; i++) {
  SEPTETS.set(GSM_EXTENDED.charCodeAt(i), 2);
}

export function isGsm7(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (!SEPTETS.has(text.charCodeAt(i))) return false;
  }
  return true;
}

export function countSegments(text: string): SegmentInfo {
  // One pass that also packs multipart segments, so the common GSM case never
  // walks the text twice; bails out to UCS-2 on the first non-GSM char.
  let units = 0;
  let segments = 0;
  let used = GSM_MULTI; // forces a new segment on the first char
  for (let i = 0; i < text.length; i++) {
    const w = SEPTETS.get(text.charCodeAt(i));
    if (w === undefined) return countUcs2(text);
    units += w;
    if (used + w > GSM_MULTI) {
      segments++;
      used = w;
    } else {
      used += w;
    }
  }
  if (units <= GSM_SINGLE) {
    return { encoding: 'gsm7', segments: units === 0 ? 0 : 1, units, perSegment: GSM_SINGLE };
  }
  return { encoding: 'gsm7', segments, units, perSegment: GSM_MULTI };
}

function countUcs2(text: string): SegmentInfo {
  const units = text.length;
  if (units <= UCS2_SINGLE) {
    return { encoding: 'ucs2', segments: units === 0 ? 0 : 1, units, perSegment: UCS2_SINGLE };
  }
  let segments = 0;
  let used = UCS2_MULTI;
  for (let i = 0; i < units; i++) {
    const c = text.charCodeAt(i);
    let w = 1;
    // Only a well-formed high+low pair is kept together; a lone surrogate is
    // just one code unit and may sit anywhere.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < units) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        w = 2;
        i++;
      }
    }
    if (used + w > UCS2_MULTI) {
      segments++;
      used = w;
    } else {
      used += w;
    }
  }
  return { encoding: 'ucs2', segments, units, perSegment: UCS2_MULTI };
}
