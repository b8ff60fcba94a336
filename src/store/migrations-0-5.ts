// The schema migrations of 0.5, appended to store/migrations.ts's MIGRATIONS after 0.4's. Each is one
// self-contained SQL text; its comment says what it adds. Append only.
export const MIGRATIONS_0_5: string[] = [
  `
  -- 0.5, opt-out sharing: unshared = 1 marks a change of this phone's list the broker has not yet given
  -- back (store/opt-outs.ts); it is published at every connect until then, so a restart or an outage
  -- loses no sharing. The changes this phone made before the upgrade are published once more; what it
  -- read from the broker is not.
  ALTER TABLE opt_outs ADD COLUMN unshared INTEGER NOT NULL DEFAULT 0;
  UPDATE opt_outs SET unshared = 1 WHERE by <> 'mqtt';
  CREATE INDEX opt_outs_unshared ON opt_outs (number) WHERE unshared = 1;
  -- A time that is not a date, or more than 5 minutes ahead of the clock (a forged shared change that
  -- 0.4 applied): now, so that it neither breaks a read nor outranks every later change.
  UPDATE opt_outs SET at = CAST(strftime('%s', 'now') AS INTEGER) * 1000
    WHERE typeof(at) <> 'integer' OR at < 0 OR at > CAST(strftime('%s', 'now') AS INTEGER) * 1000 + 300000;
  `,
  `
  -- 0.5, origin: where each message came from (store/message-record.ts ORIGINS). Rows from
  -- before are given theirs once, from what 0.4 stored: the source address it wrote for its
  -- own answers ('opt-out': a START's confirmation when its Idempotency-Key began 'opt-in:',
  -- else a STOP's confirmation, which 0.4 did not tell from a HELP answer; 'rule'; 'mqtt'),
  -- an alert receiver's Idempotency-Key ('alert:...'), and the route (queued, else the
  -- synchronous send).
  ALTER TABLE messages ADD COLUMN origin TEXT NOT NULL DEFAULT 'api' CHECK (origin IN ('api', 'queue', 'mqtt',
    'smsgate', 'email', 'alert', 'rule_reply', 'opt_out_reply', 'opt_in_reply', 'help_reply'));
  UPDATE messages SET origin = CASE
    WHEN source_ip = 'opt-out' AND substr(idempotency_key, 1, 7) = 'opt-in:' THEN 'opt_in_reply'
    WHEN source_ip = 'opt-out' THEN 'opt_out_reply'
    WHEN source_ip = 'rule' THEN 'rule_reply'
    WHEN source_ip = 'mqtt' THEN 'mqtt'
    WHEN substr(idempotency_key, 1, 6) = 'alert:' THEN 'alert'
    WHEN via = 'queue' THEN 'queue'
    ELSE 'api'
  END;
  `,
  `
  -- 0.5, auto-reply limits: the gateway's own answers of the last hour, counted from the table
  -- (store/message-reads.ts automaticSince), so a restart does not reset the limits.
  CREATE INDEX messages_automatic ON messages (created_at)
    WHERE origin IN ('rule_reply', 'opt_out_reply', 'opt_in_reply', 'help_reply');
  `,
  `
  -- 0.5, two spaces of Idempotency-Keys: the keys the gateway made for itself (alert receivers,
  -- opt-out answers, rule replies) move behind char(31), which no caller's key can hold
  -- (sms/idempotency.ts ownKey), so an alert retried across the upgrade still finds its first message.
  UPDATE messages SET idempotency_key = char(31) || idempotency_key
    WHERE idempotency_key IS NOT NULL
      AND origin IN ('alert', 'rule_reply', 'opt_out_reply', 'opt_in_reply', 'help_reply');
  `,
  `
  -- 0.5, SMSGate's webhook registrations (store/smsgate-webhooks.ts): one event each, under the caller's
  -- id or one the gateway made. Their deliveries are the outbox's rows (webhook_deliveries) with target
  -- 'smsgate:<id>', a lane of their own; each such event's body is SMSGate's envelope for that registration.
  CREATE TABLE smsgate_webhooks (
    id TEXT PRIMARY KEY,
    url TEXT NOT NULL,
    event TEXT NOT NULL,
    created_at INTEGER NOT NULL
  );
  CREATE INDEX smsgate_webhooks_by_event ON smsgate_webhooks (event);
  `,
  `
  -- 0.5, priority: waiting messages go by priority (-128..127, higher first) among those that are
  -- due, then as before (due_at, seq); store/queue.ts reads the next one through this index.
  ALTER TABLE messages ADD COLUMN priority INTEGER NOT NULL DEFAULT 0 CHECK (priority BETWEEN -128 AND 127);
  CREATE INDEX messages_waiting_priority ON messages (priority DESC, due_at, seq)
    WHERE status = 'queued' AND handoff_started_at IS NULL;
  `,
  `
  -- 0.5, SMSGate's messages: one SMSGate message id covers the records of its recipients (one per
  -- recipient, in the order given). A record leaving the history takes its line with it.
  CREATE TABLE smsgate_messages (
    message_id TEXT PRIMARY KEY,      -- msg_..., one recipient's record
    smsgate_id TEXT NOT NULL,         -- the id the caller gave, or the one the gateway made
    position INTEGER NOT NULL,        -- the recipient's place in phoneNumbers
    created_at INTEGER NOT NULL,      -- ms since epoch, UTC: GET /messages's from and to
    UNIQUE (smsgate_id, position)
  );
  CREATE INDEX smsgate_messages_newest ON smsgate_messages (created_at DESC, smsgate_id);
  CREATE TRIGGER smsgate_messages_pruned AFTER DELETE ON messages
  BEGIN
    DELETE FROM smsgate_messages WHERE message_id = OLD.id;
  END;
  `,
  `
  -- 0.5, SMSGate's GET /logs: the gateway's warnings and errors, kept across restarts
  -- (store/log-entries.ts): written in batches, the newest 1000 kept, in the transaction that adds them.
  CREATE TABLE log_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at INTEGER NOT NULL,
    priority TEXT NOT NULL CHECK (priority IN ('WARN', 'ERROR')),
    module TEXT NOT NULL,
    message TEXT NOT NULL,
    context TEXT
  );
  CREATE INDEX log_entries_at ON log_entries (at);
  `,
  `
  -- 0.5, the outbox keeps typed events (store/outbox.ts): a new event row holds in record the JSON of its
  -- typed record and the ids fixed when it happened; the JSON a webhook receives is rendered from it at
  -- each attempt (events/wire-bodies.ts). A row stored before keeps its exact wire body, moved to wire,
  -- and is posted as stored; record stays NULL there, wire stays NULL in every new row.
  ALTER TABLE webhook_events ADD COLUMN wire TEXT;
  UPDATE webhook_events SET wire = body;
  ALTER TABLE webhook_events DROP COLUMN body;
  ALTER TABLE webhook_events ADD COLUMN record TEXT;
  `,
];
