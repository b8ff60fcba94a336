// The diagnostics webhooks check's inbox part (src/status/webhooks-check.ts): the watcher's
// last poll as the schema documents it, with the backlog a capped poll leaves for the next
// (backlogFrom); a backlog alone is no fault: the check stays ok.
import t from 'tap';
import { webhooksCheck } from '../../src/status/webhooks-check.js';
import { ChecksSchema } from '../../src/status/checks-schema.js';
import type { InboxHealth } from '../../src/events/inbox-watcher.js';

const health = (over: Partial<InboxHealth> = {}): InboxHealth => ({
  lastPollAt: Date.UTC(2026, 10, 24, 10, 0, 0),
  lastOk: true,
  lastError: null,
  lastErrorAt: null,
  consecutiveFailures: 0,
  watermark: 1220,
  received: 1000,
  backlogFrom: null,
  ...over,
});

t.test('the inbox part shows the backlog a capped poll left, as the schema documents it', async (t) => {
  const capped = webhooksCheck([], health({ backlogFrom: 990 }));
  t.same(capped, {
    status: 'ok',
    value: {
      pending: 0,
      targets: [],
      inbox: {
        lastPollAt: '2026-11-24T10:00:00.000Z',
        lastOk: true,
        lastError: null,
        consecutiveFailures: 0,
        received: 1000,
        backlogFrom: 990,
      },
    },
  });
  t.same(
    ChecksSchema.shape.webhooks.parse(capped),
    capped,
    'the documented schema keeps it (the response serializer drops what it does not name)',
  );
  t.equal(webhooksCheck([], health()).value.inbox?.backlogFrom, null, 'none left: null');
  t.equal(webhooksCheck([], null).value.inbox, null, 'no inbox read: no inbox part');
  const failing = webhooksCheck(
    [],
    health({ backlogFrom: 990, lastOk: false, lastError: 'timeout: no answer', consecutiveFailures: 1 }),
  );
  t.equal(failing.status, 'degraded', 'an unreadable inbox is still what degrades it');
  t.equal(failing.value.inbox?.backlogFrom, 990);
});
