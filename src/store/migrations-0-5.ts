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
];
