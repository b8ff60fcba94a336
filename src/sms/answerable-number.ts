// Which senders an automatic message (an opt-out confirmation, a HELP answer, a rule's reply)
// may go to: a number that libphonenumber-js, with its full metadata, classifies as mobile,
// fixed line, or either; never premium-rate, shared-cost, UAN, VoIP, a short code, an
// alphanumeric sender id or a number it cannot classify. A national form (a leading 0, or
// digits without a +) is read in the SIM's country; with no country known, only the
// international form (+...) can be classified. Digits without a + that are no valid national
// number are read as the international number without its + (as some phones report senders).
// The answer goes to, and the limits count, the number's E.164 form: +15550003103,
// 15550003103 and 0015550003103 are one sender. The metadata (about 150 KB) is loaded only
// when an automatic answer is possible (prepare), never at start.
import type { CountryCode, NumberType } from 'libphonenumber-js';

type Numbering = typeof import('libphonenumber-js/max');

const ANSWERABLE: ReadonlySet<NumberType> = new Set<NumberType>(['MOBILE', 'FIXED_LINE', 'FIXED_LINE_OR_MOBILE']);
/** What a sender may look like before it is classified: digits, an optional +, separators. */
const NUMBER_LIKE = /^\+?[0-9]{3,17}$/;

export type Answerable = { ok: true; e164: string } | { ok: false; why: 'not_dialable' | 'number_type' };

/** The loaded library, the classifier; load() once before classify() is asked. */
export function createNumbering() {
  let lib: Numbering | undefined;
  let loading: Promise<void> | undefined;

  const parse = (text: string, country: CountryCode | undefined) => {
    try {
      return lib!.parsePhoneNumberFromString(text, country);
    } catch {
      return undefined;
    }
  };
  /** The number as the library reads it, or undefined: in the SIM's country, else international. */
  const read = (number: string, country: CountryCode | undefined) => {
    if (number.startsWith('+')) return parse(number, undefined);
    const national = country ? parse(number, country) : undefined;
    if (national?.isValid()) return national;
    return number.startsWith('0') ? undefined : parse(`+${number}`, undefined);
  };

  return {
    loaded: () => lib !== undefined,
    /** Loads the metadata (once). */
    load(): Promise<void> {
      loading ??= import('libphonenumber-js/max').then((m) => {
        lib = m;
      });
      return loading;
    },
    /** The sender's E.164 form when automatic messages may go to it. Throws when not loaded. */
    classify(sender: string, country: string | null): Answerable {
      if (!lib) throw new Error('the numbering metadata is not loaded');
      const number = sender.replace(/[ \-.()]/g, '');
      if (!NUMBER_LIKE.test(number)) return { ok: false, why: 'not_dialable' };
      const upper = country?.toUpperCase() ?? '';
      const code = lib.isSupportedCountry(upper) ? upper : undefined;
      const parsed = read(number, code);
      if (!parsed?.isValid()) return { ok: false, why: 'number_type' };
      const type = parsed.getType();
      if (type === undefined || !ANSWERABLE.has(type)) return { ok: false, why: 'number_type' };
      return { ok: true, e164: parsed.number };
    },
  };
}

export type NumberClassifier = ReturnType<typeof createNumbering>;
