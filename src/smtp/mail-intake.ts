// The e-mail intake's queueing: one mail becomes one SMS per recipient (origin `email`),
// queued through the queue's own intake (sms/enqueue.ts: validation, opt-out, storage and
// queue_full refusals as there; queue_full for the whole mail when its new messages do not
// all fit), each tagged `email: <Message-ID>`. A device that cannot tell whether its mail
// arrived sends it again with the same Message-ID: each recipient's message carries a key
// made from the Message-ID and the number (emailKey), kept in the space of the gateway's own
// keys (no caller's Idempotency-Key can match one), so the same mail again queues nothing
// new. A mail without a Message-ID is known by its bytes instead. The keys live on the
// message records, so they last while the record is in the history (every waiting message,
// the newest 1000 settled ones). Look-up and commit run in one synchronous step: two copies
// at once cannot both queue.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { MAX_TAG_VALUE } from '../store/message-record.js';
import type { MessageStore } from '../store/messages.js';
import type { Enqueue } from '../sms/enqueue.js';
import { hashOf, ownKey } from '../sms/idempotency.js';

/** The prefix of every Idempotency-Key the e-mail intake makes for itself. */
export const EMAIL_KEY_PREFIX = 'email:';

/** The gateway's own Idempotency-Key for the SMS a mail (known by `identity`) makes for one number. */
export function emailKey(identity: string, number: string): string {
  return `${EMAIL_KEY_PREFIX}${hashOf([identity, number]).slice(0, 48)}`;
}

export interface MailIntakeDeps {
  enqueue: Pick<Enqueue, 'accept' | 'ensureRoom'>;
  store: Pick<MessageStore, 'byIdempotencyKey'>;
  logger?: Logger | undefined;
}

export interface IncomingMail {
  numbers: string[];
  text: string;
  /** The Message-ID header as sent, or undefined when the mail has none. */
  messageId: string | undefined;
  /** The raw mail, to know a mail without a Message-ID by. */
  raw: Buffer;
  sourceIp: string;
}

export interface MailOutcome {
  /** The message ids, one per recipient (a repeat's are the first mail's). */
  ids: string[];
  /** Every recipient's SMS was queued by an earlier copy of this mail. */
  repeated: boolean;
}

export function createMailIntake(deps: MailIntakeDeps) {
  return {
    /** Queues the mail's SMS to each number not queued for it before; throws the queue's GatewayError. */
    receive(mail: IncomingMail): MailOutcome {
      const identity = mail.messageId ?? `sha256:${createHash('sha256').update(mail.raw).digest('hex')}`;
      const keys = mail.numbers.map((number) => emailKey(identity, number));
      const firsts = keys.map((key) => deps.store.byIdempotencyKey(ownKey(key)));
      const missing = firsts.filter((row) => row === undefined).length;
      if (missing > 0) deps.enqueue.ensureRoom(missing); // room for all of them, or none is queued
      const tags = { email: (mail.messageId ?? 'none').slice(0, MAX_TAG_VALUE) };
      const ids = mail.numbers.map((to, i) => {
        const first = firsts[i];
        if (first) return first.id;
        const ctx = { origin: 'email' as const, sourceIp: mail.sourceIp, ownKey: keys[i] };
        const accepted = deps.enqueue.accept({ to, message: mail.text, tags }, ctx);
        if (accepted instanceof Promise || accepted.kind !== 'accepted')
          throw new Error('a new idempotency key was answered from before');
        return accepted.records[0]!.id;
      });
      const repeated = missing === 0;
      deps.logger?.info(
        { ids, recipients: ids.length, repeated },
        repeated ? 'a mail came again: nothing queued' : 'a mail queued as SMS',
      );
      return { ids, repeated };
    },
  };
}

export type MailIntake = ReturnType<typeof createMailIntake>;
