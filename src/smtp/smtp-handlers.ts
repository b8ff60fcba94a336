// The SMTP conversation's choices, each at the step where it belongs: the local-network
// guard at connect (core/addresses.ts judges the peer, as for HTTP), AUTH PLAIN/LOGIN with any
// user name and the API key as password (compared in constant time, read at each AUTH so a new
// key counts at once), MAIL and RCPT refused without AUTH unless the sender is trusted, each
// recipient checked at RCPT (a number or a contact, not opted out, at most 10), and the data:
// read up to the size limit, parsed (mailparser), made into one SMS per recipient and queued.
import type { SMTPServerOptions, SMTPServerSession } from 'smtp-server';
import { canonicalAddress, isLocalAddress } from '../core/addresses.js';
import { secretsEqual } from '../core/keys.js';
import type { Contact } from '../core/mqtt-settings.js';
import type { OptOutList } from '../sms/opt-out-list.js';
import type { SmtpRefusal } from '../status/smtp-check.js';
import type { MailIntake } from './mail-intake.js';
import { mailRecipient } from './mail-recipient.js';
import { mailText } from './mail-text.js';
import { answers, MAIL_MAX_RECIPIENTS, queueRefusal, type SmtpRefusalError } from './smtp-answers.js';
import { readMail } from './read-mail.js';

export interface SmtpHandlerDeps {
  segments: number;
  apiKey: () => string;
  contacts: () => readonly Contact[];
  optOuts: Pick<OptOutList, 'isListed'>;
  intake: Pick<MailIntake, 'receive'>;
  trusted: (address: string | undefined) => boolean;
  refused: (reason: SmtpRefusal) => void;
  accepted: (repeated: boolean) => void;
}

/** Only the text is wanted: no HTML made from the text, no links, no attachment checksums. */
const PARSE_OPTIONS = { skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true, checksumAlgo: false } as const;

/**
 * mailparser, loaded at the first mail: an idle gateway with the intake on does not hold it (with
 * its character sets it is about 12 MB of the idle memory). A failed load is tried again next time.
 */
let mailparser: Promise<typeof import('mailparser')> | undefined;
async function parseMail(raw: Buffer) {
  mailparser ??= import('mailparser').catch((err: unknown) => {
    mailparser = undefined;
    throw err;
  });
  return (await mailparser).simpleParser(raw, PARSE_OPTIONS);
}

type Handlers = Required<Pick<SMTPServerOptions, 'onConnect' | 'onAuth' | 'onMailFrom' | 'onRcptTo' | 'onData'>>;

export function smtpHandlers(deps: SmtpHandlerDeps): Handlers {
  const refuse = (err: SmtpRefusalError) => {
    deps.refused(err.reason);
    return err;
  };
  const mayMail = (session: SMTPServerSession) => session.user !== undefined || deps.trusted(session.remoteAddress);
  const numbersOf = (session: SMTPServerSession) => {
    const numbers = session.envelope.rcptTo
      .map((r) => mailRecipient(r.address, deps.contacts()))
      .flatMap((r) => (r.ok ? [r.number] : []));
    return [...new Set(numbers)];
  };
  return {
    onConnect(session, callback) {
      callback(isLocalAddress(session.remoteAddress) ? null : refuse(answers.notLocal()));
    },
    onAuth(auth, _session, callback) {
      const password = auth.method === 'PLAIN' || auth.method === 'LOGIN' ? (auth.password ?? '') : '';
      if (password !== '' && secretsEqual(password, deps.apiKey())) callback(null, { user: auth.username || 'sms' });
      else callback(refuse(answers.authFailed()));
    },
    onMailFrom(_address, session, callback) {
      callback(mayMail(session) ? null : refuse(answers.authMissing()));
    },
    onRcptTo(address, session, callback) {
      if (!mayMail(session)) return callback(refuse(answers.authMissing()));
      const known = session.envelope.rcptTo.some((r) => r.address.toLowerCase() === address.address.toLowerCase());
      if (!known && session.envelope.rcptTo.length >= MAIL_MAX_RECIPIENTS)
        return callback(refuse(answers.tooManyRecipients()));
      const recipient = mailRecipient(address.address, deps.contacts());
      if (!recipient.ok) return callback(refuse(answers.invalidRecipient(recipient.reason)));
      if (deps.optOuts.isListed(recipient.number)) return callback(refuse(answers.optedOut()));
      callback();
    },
    onData(stream, session, callback) {
      readMail(stream)
        .then(async (raw) => {
          if (raw === undefined) throw answers.tooLarge();
          const mail = await parseMail(raw);
          const text = mailText(mail, deps.segments);
          if (text === '') throw answers.noText();
          const sourceIp = canonicalAddress(session.remoteAddress) ?? 'unknown';
          const outcome = deps.intake.receive({
            numbers: numbersOf(session),
            text,
            messageId: mail.messageId,
            raw,
            sourceIp,
          });
          deps.accepted(outcome.repeated);
          callback(
            null,
            `Queued as SMS ${outcome.ids.join(' ')}${outcome.repeated ? ' (a repeat: queued before)' : ''}`,
          );
        })
        .catch((err: unknown) => callback(refuse(queueRefusal(err))));
    },
  };
}
