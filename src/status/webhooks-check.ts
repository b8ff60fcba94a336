// The diagnostics `webhooks` check: every target (its URL as scheme, host and port only)
// with its deliveries, and the inbox watcher's last poll. A target switched off by a 410,
// deliveries that keep failing, or an inbox that cannot be read: degraded, with the fix.
// A poll that hit the page cap leaves a backlog (inbox.backlogFrom): the next poll reads on.
import { redactUrl } from '../core/webhook-url.js';
import type { TargetStatus } from '../store/webhook-targets.js';
import type { InboxHealth } from '../events/inbox-watcher.js';
import { check, type CheckOf } from './check.js';
import { isoOrNull as iso } from '../core/clock.js';

export function webhooksCheck(targets: TargetStatus[], inbox: Readonly<InboxHealth> | null): CheckOf<'webhooks'> {
  const value = {
    pending: targets.reduce((n, t) => n + t.pending, 0),
    targets: targets.map((t) => ({
      id: t.id,
      source: t.source,
      url: redactUrl(t.url),
      disabled: t.disabled,
      pending: t.pending,
      delivered: t.delivered,
      expired: t.expired,
      failedAttempts: t.failedAttempts,
      lastSuccessAt: iso(t.lastSuccessAt),
      lastError: t.lastError,
      lastErrorAt: iso(t.lastErrorAt),
    })),
    inbox: inbox && {
      lastPollAt: iso(inbox.lastPollAt),
      lastOk: inbox.lastOk,
      lastError: inbox.lastError,
      consecutiveFailures: inbox.consecutiveFailures,
      received: inbox.received,
      backlogFrom: inbox.backlogFrom,
    },
  };
  const off = targets.find((t) => t.disabled);
  if (off) {
    return check(
      'degraded',
      value,
      `${redactUrl(off.url)} answered 410 Gone and was switched off: fix the receiver, then run \`sms-gateway ` +
        `webhook test\` to switch it back on.`,
    );
  }
  const failing = targets.find(
    (t) => t.pending > 0 && t.lastErrorAt !== null && (t.lastSuccessAt === null || t.lastErrorAt > t.lastSuccessAt),
  );
  if (failing) {
    return check(
      'degraded',
      value,
      `Deliveries to ${redactUrl(failing.url)} fail (${failing.lastError}); events are kept and retried for 24 hours.`,
    );
  }
  if (inbox && inbox.lastOk === false) {
    const hint = inbox.lastError?.startsWith('permission_denied')
      ? 'Reading the inbox needs the SMS permission: Settings > Apps > Termux:API > Permissions > SMS.'
      : `Reading the inbox fails (${inbox.lastError}); it is tried again at the next poll.`;
    return check('degraded', value, hint);
  }
  return check('ok', value);
}
