// Numbered schema migrations: MIGRATIONS[n] takes user_version n to n + 1. Append only: 0.4's
// are in migrations-0-4.ts, 0.5's in migrations-0-5.ts, the next ones go at its end.
import { MIGRATIONS_0_4 } from './migrations-0-4.js';
import { MIGRATIONS_0_5 } from './migrations-0-5.js';

export const MIGRATIONS: string[] = [
  `
  CREATE TABLE messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    to_number TEXT NOT NULL,          -- as the client sent it
    send_to TEXT NOT NULL,            -- normalized: what termux-sms-send -n got
    body TEXT NOT NULL,
    segments INTEGER NOT NULL,
    billed_segments INTEGER NOT NULL DEFAULT 0,
    encoding TEXT NOT NULL CHECK (encoding IN ('gsm7', 'ucs2')),
    sim_slot INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed')),
    reason TEXT,
    source_ip TEXT NOT NULL,
    created_at INTEGER NOT NULL,      -- ms since epoch, UTC
    updated_at INTEGER NOT NULL,
    stats_day TEXT NOT NULL,          -- local day the message counts on (YYYY-MM-DD)
    handoff_started_at INTEGER,       -- set, committed, right before the hand-off
    handed_off_at INTEGER,            -- set when the hand-off succeeded
    idempotency_key TEXT UNIQUE,
    request_hash TEXT,
    response_status INTEGER,          -- the answer given, replayed for the same Idempotency-Key
    response_body TEXT
  );
  CREATE INDEX messages_newest ON messages (created_at DESC, id DESC);
  CREATE INDEX messages_status_newest ON messages (status, created_at DESC, id DESC);

  -- History keeps the newest 1000 messages.
  CREATE TRIGGER messages_keep_newest_1000 AFTER INSERT ON messages
  BEGIN
    DELETE FROM messages
    WHERE seq <= (SELECT seq FROM messages ORDER BY seq DESC LIMIT 1 OFFSET 1000);
  END;

  -- Roll-ups, updated in the same transaction as each status change, so pruning the
  -- history never changes statistics.
  CREATE TABLE daily_stats (
    day TEXT PRIMARY KEY,             -- YYYY-MM-DD in the phone's time zone
    accepted INTEGER NOT NULL DEFAULT 0,
    sent INTEGER NOT NULL DEFAULT 0,
    failed INTEGER NOT NULL DEFAULT 0,
    segments INTEGER NOT NULL DEFAULT 0,
    billed_segments INTEGER NOT NULL DEFAULT 0
  );

  CREATE TABLE meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  );
  `,
  `
  -- Webhook outbox: an event is written in the same transaction as the change that
  -- causes it, with one delivery row per target; delivered or expired rows are deleted,
  -- and an event goes with its last delivery.
  CREATE TABLE webhook_events (
    id TEXT PRIMARY KEY,              -- also the webhook-id header, stable across retries
    type TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    body TEXT NOT NULL                -- the exact JSON that is signed and sent
  );
  CREATE TABLE webhook_deliveries (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    event_id TEXT NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
    target TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    last_error TEXT,
    UNIQUE (event_id, target)
  );
  CREATE INDEX webhook_deliveries_by_target ON webhook_deliveries (target, seq);
  CREATE TRIGGER webhook_event_done AFTER DELETE ON webhook_deliveries
  WHEN NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = OLD.event_id)
  BEGIN
    DELETE FROM webhook_events WHERE id = OLD.event_id;
  END;
  CREATE TABLE webhook_targets (
    url TEXT PRIMARY KEY,
    disabled_at INTEGER,              -- set when the target answered 410 Gone
    delivered INTEGER NOT NULL DEFAULT 0,
    expired INTEGER NOT NULL DEFAULT 0,
    failed_attempts INTEGER NOT NULL DEFAULT 0,
    last_success_at INTEGER,
    last_error TEXT,
    last_error_at INTEGER
  );

  -- A message handed off but not yet confirmed stays queued with handed_off_at set; that
  -- is all a restart needs to resume the confirmation. SMS store rows already matched to a
  -- message, so two identical texts never match one row.
  ALTER TABLE messages ADD COLUMN sms_store_id INTEGER;
  `,
  `
  -- 0.2: the durable send queue. SQLite cannot change a CHECK constraint in place, so
  -- messages is rebuilt with 'cancelled' allowed and the queue's columns:
  --   via: 'sync' (POST /api/sms/send) or 'queue' (POST /api/messages, MQTT)
  --   send_at, expires_at: as the client asked (ms, UTC), or NULL
  --   due_at: COALESCE(send_at, created_at): queued messages leave in this order, then seq
  CREATE TABLE messages_v3 (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    to_number TEXT NOT NULL,
    send_to TEXT NOT NULL,
    body TEXT NOT NULL,
    segments INTEGER NOT NULL,
    billed_segments INTEGER NOT NULL DEFAULT 0,
    encoding TEXT NOT NULL CHECK (encoding IN ('gsm7', 'ucs2')),
    sim_slot INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('queued', 'sent', 'failed', 'cancelled')),
    reason TEXT,
    source_ip TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    stats_day TEXT NOT NULL,
    handoff_started_at INTEGER,
    handed_off_at INTEGER,
    idempotency_key TEXT UNIQUE,
    request_hash TEXT,
    response_status INTEGER,
    response_body TEXT,
    sms_store_id INTEGER,
    via TEXT NOT NULL DEFAULT 'sync' CHECK (via IN ('sync', 'queue')),
    send_at INTEGER,
    expires_at INTEGER,
    due_at INTEGER NOT NULL
  );
  INSERT INTO messages_v3 (seq, id, to_number, send_to, body, segments, billed_segments, encoding,
    sim_slot, status, reason, source_ip, created_at, updated_at, stats_day, handoff_started_at,
    handed_off_at, idempotency_key, request_hash, response_status, response_body, sms_store_id, due_at)
  SELECT seq, id, to_number, send_to, body, segments, billed_segments, encoding,
    sim_slot, status, reason, source_ip, created_at, updated_at, stats_day, handoff_started_at,
    handed_off_at, idempotency_key, request_hash, response_status, response_body, sms_store_id, created_at
  FROM messages;
  DROP TABLE messages;
  ALTER TABLE messages_v3 RENAME TO messages;
  CREATE INDEX messages_newest ON messages (created_at DESC, id DESC);
  CREATE INDEX messages_status_newest ON messages (status, created_at DESC, id DESC);
  -- What waits for the hand-off lane, in its order; and what may expire.
  CREATE INDEX messages_waiting ON messages (due_at, seq)
    WHERE status = 'queued' AND handoff_started_at IS NULL;
  CREATE INDEX messages_expiring ON messages (expires_at)
    WHERE status = 'queued' AND handoff_started_at IS NULL AND expires_at IS NOT NULL;
  CREATE INDEX messages_handoffs ON messages (handoff_started_at) WHERE handoff_started_at IS NOT NULL;
  CREATE INDEX messages_settled ON messages (updated_at DESC, seq DESC) WHERE status != 'queued';

  -- History keeps the 1000 most recently settled messages; a queued message is never
  -- pruned. Settling is what adds to them, so that is when the oldest go (never the one
  -- settling now, even when it was accepted long ago or the phone's clock went back).
  CREATE TRIGGER messages_keep_newest_1000 AFTER UPDATE OF status ON messages
  WHEN OLD.status = 'queued' AND NEW.status != 'queued'
  BEGIN
    DELETE FROM messages WHERE seq != NEW.seq AND seq IN (
      SELECT seq FROM messages WHERE status != 'queued'
      ORDER BY updated_at DESC, seq DESC LIMIT -1 OFFSET 1000
    );
  END;

  ALTER TABLE daily_stats ADD COLUMN cancelled INTEGER NOT NULL DEFAULT 0;
  `,
  `
  -- 0.2: what the inbox watcher announced, by key (SMS-store _id, received time, a hash of
  -- sender and text), so a new message reusing a deleted one's _id is still announced.
  CREATE TABLE inbox_seen (
    key TEXT PRIMARY KEY,
    seen_at INTEGER NOT NULL
  );
  CREATE INDEX inbox_seen_newest ON inbox_seen (seen_at DESC);
  `,
  `
  -- 0.2: the process group of a hand-off, recorded as it starts, so a next start can end
  -- what is left of one a crash interrupted (only in the same boot) and then settle it
  -- through the sent box instead of guessing.
  ALTER TABLE messages ADD COLUMN handoff_pgid INTEGER;
  ALTER TABLE messages ADD COLUMN handoff_boot TEXT;
  ALTER TABLE messages ADD COLUMN handoff_start_ticks INTEGER;
  `,
  `
  -- 6 (0.2): received SMS as the inbox watcher announced them, for GET /api/inbox.
  CREATE TABLE inbox_messages (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,  -- announcement order: newest is highest
    id TEXT NOT NULL UNIQUE,                -- in_...
    sms_id INTEGER NOT NULL,                -- the phone's SMS-store _id
    from_number TEXT,                       -- the sender as the phone stored it
    from_key TEXT,                          -- the same for the from filter (store/inbox.ts fromKey)
    contact TEXT,                           -- the contact's name, when one matches
    body TEXT NOT NULL,
    received_at INTEGER,                    -- ms since epoch, UTC; NULL when the phone's time is unreadable
    sim_slot INTEGER,
    stored_at INTEGER NOT NULL
  );
  CREATE INDEX inbox_messages_from ON inbox_messages (from_key, seq DESC);
  -- The newest 1000 are kept.
  CREATE TRIGGER inbox_keep_newest_1000 AFTER INSERT ON inbox_messages
  BEGIN
    DELETE FROM inbox_messages
    WHERE seq <= (SELECT seq FROM inbox_messages ORDER BY seq DESC LIMIT 1 OFFSET 1000);
  END;

  -- Webhook targets registered over the API next to those of SMS_GATEWAY_WEBHOOK_URLS.
  -- Rows from before have no id yet: the start's sync gives them one (events/outbox.ts).
  ALTER TABLE webhook_targets ADD COLUMN id TEXT;            -- wh_...
  ALTER TABLE webhook_targets ADD COLUMN source TEXT NOT NULL DEFAULT 'env' CHECK (source IN ('env', 'api'));
  ALTER TABLE webhook_targets ADD COLUMN created_at INTEGER;
  CREATE UNIQUE INDEX webhook_targets_id ON webhook_targets (id);
  `,
  `
  -- 7 (0.2): a URL registered over the API and later also listed in SMS_GATEWAY_WEBHOOK_URLS
  -- stays registered when it leaves the environment again.
  ALTER TABLE webhook_targets ADD COLUMN api_registered INTEGER NOT NULL DEFAULT 0;
  UPDATE webhook_targets SET api_registered = 1 WHERE source = 'api';
  -- Events made inside a transaction, waiting to be told to the outbox's listener (MQTT)
  -- once it committed: a rolled-back event is never announced (events/outbox.ts).
  CREATE TABLE event_announcements (id TEXT PRIMARY KEY);
  `,
  `
  -- 8 (0.3): events are announced by the store's after-commit hook (store/transaction.ts),
  -- in memory: the table of migration 7 is no longer used.
  DROP TABLE event_announcements;
  `,
  `
  -- 9 (0.3): which entries of the phone's SMS store are already matched to a message is
  -- asked of the few entries one read returns, through this index, not of the whole history.
  CREATE INDEX messages_sms_store_id ON messages (sms_store_id) WHERE sms_store_id IS NOT NULL;
  `,
  ...MIGRATIONS_0_4,
  ...MIGRATIONS_0_5,
];
