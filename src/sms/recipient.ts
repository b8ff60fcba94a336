// Recipient rules: `to` is stored as sent; for sending, spaces, dashes, dots and
// parentheses are removed, and what remains must be an optional leading + and 3 to 15
// ASCII digits. termux-sms-send -n splits on commas, so a comma can never pass. The same
// digits with or without the + are one number to the opt-out list and the rules (numberForms).
const DECORATION = /[ \-.()]/g;
const NUMBER = /^\+?[0-9]{3,15}$/;

/**
 * A normalized number and its other writing: the same digits with or without the leading + (one number to the opt-out
 * list and rules).
 */
export const numberForms = (number: string): [string, string] => [
  number,
  number.startsWith('+') ? number.slice(1) : `+${number}`,
];

export type RecipientCheck = { ok: true; number: string } | { ok: false; message: string };

export function normalizeRecipient(to: string): RecipientCheck {
  const number = to.replace(DECORATION, '');
  if (NUMBER.test(number)) return { ok: true, number };
  if (/[,;]/.test(to)) {
    return {
      ok: false,
      message: 'to must be one phone number; commas and semicolons (several recipients) are not accepted',
    };
  }
  return {
    ok: false,
    message:
      'to must be a phone number: an optional leading + and 3 to 15 digits (spaces, dashes, dots and parentheses ' +
      'are allowed between them)',
  };
}
