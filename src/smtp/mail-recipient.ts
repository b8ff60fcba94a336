// A mail's recipient (`RCPT TO`) as an SMS recipient: `<number>@<any domain>` (digits with or
// without +, the decorations a number may carry) or `<contact name>@<any domain>` with a name
// of SMS_GATEWAY_CONTACTS (any case; a dot, dash or underscore may stand for a space, as a
// mail address cannot hold one). The domain says nothing: `+15551234567@sms` and
// `15551234567@phone.lan` are one number.
import type { Contact } from '../core/mqtt-settings.js';
import { normalizeRecipient } from '../sms/recipient.js';

export type MailRecipient = { ok: true; number: string; contact: string | null } | { ok: false; reason: string };

const fold = (s: string) => s.normalize('NFKC').toLowerCase();
const spaced = (s: string) => fold(s).replace(/[._-]+/g, ' ');

export function mailRecipient(address: string, contacts: readonly Contact[]): MailRecipient {
  const at = address.lastIndexOf('@');
  const local = (at === -1 ? address : address.slice(0, at)).trim();
  if (local === '') return { ok: false, reason: `<${address}> names no recipient before the @` };
  const contact = contacts.find(
    (c) => fold(c.name) === fold(local) || spaced(c.name) === spaced(local) || c.slug === fold(local),
  );
  if (contact) {
    const checked = normalizeRecipient(contact.number);
    if (checked.ok) return { ok: true, number: checked.number, contact: contact.name };
  }
  const checked = normalizeRecipient(local);
  if (checked.ok) return { ok: true, number: checked.number, contact: null };
  return {
    ok: false,
    reason:
      `<${address}> is neither a phone number (+15551234567@sms) nor a contact name in SMS_GATEWAY_CONTACTS` +
      (contacts.length === 0 ? ' (none are set)' : ''),
  };
}
