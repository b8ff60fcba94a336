// The schema migrations of 0.4 (user_version 9 to 12; each comment names the version it makes),
// appended to store/migrations.ts's MIGRATIONS: reply correlation, the opt-out list, keyword rules. Append only.
export const MIGRATIONS_0_4: string[] = [
  `
  -- 10 (0.4, replies): a message's tags (JSON, NULL when none; store/message-tags.ts); the
  -- newest message handed off to a number, found through an index (store/message-replies.ts); and
  -- what a received SMS replies to, decided when it is stored (JSON { id, tags }, NULL: none).
  ALTER TABLE messages ADD COLUMN tags TEXT;
  CREATE INDEX messages_sent_to ON messages (send_to, handed_off_at DESC) WHERE handed_off_at IS NOT NULL;
  ALTER TABLE inbox_messages ADD COLUMN in_reply_to TEXT;
  `,
  `
  -- 11 (0.4, opt-out): the opt-out list (STOP): one row per number that opted out or back
  -- in, never pruned with the history (store/opt-outs.ts).
  CREATE TABLE opt_outs (
    number TEXT PRIMARY KEY,          -- normalized as a recipient (sms/recipient.ts)
    opted_out INTEGER NOT NULL,       -- 1 listed, 0 taken off again (kept: its time decides shared changes)
    at INTEGER NOT NULL,              -- ms since epoch, UTC, of the last change
    by TEXT NOT NULL                  -- sms, api or mqtt
  );
  CREATE INDEX opt_outs_listed ON opt_outs (at DESC) WHERE opted_out = 1;
  `,
  `
  -- 12 (0.4, keyword rules): the rules (store/rules.ts), and the keyword a received SMS triggered.
  CREATE TABLE rules (id TEXT PRIMARY KEY, keyword TEXT NOT NULL,
    match TEXT NOT NULL CHECK (match IN ('exact', 'prefix')),
    reply TEXT NOT NULL, from_numbers TEXT, created_at INTEGER NOT NULL);
  ALTER TABLE inbox_messages ADD COLUMN keyword TEXT;
  `,
];
