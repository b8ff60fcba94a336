// The inbox watcher's health (GET /api/diagnostics reads it) and the log lines of each
// poll's outcome: a failure once per streak, the recovery, a capped poll, new messages.
import type { Logger } from 'pino';
import type { Committed } from './inbox-memory.js';
import { MAX_PAGES, type Fetched, type PollFailure } from './inbox-pages.js';

export interface InboxHealth {
  lastPollAt: number | null;
  lastOk: boolean | null;
  /** "<failure kind>: <detail>" of the latest failed poll. */
  lastError: string | null;
  lastErrorAt: number | null;
  consecutiveFailures: number;
  watermark: number | null;
  /** sms.received events made since this watcher was created. */
  received: number;
  /** A poll hit the page cap: the next one reads on from this offset (null: none). */
  backlogFrom: number | null;
}

/** The watcher's health and the log lines of a poll's outcome. */
export function pollReport(logger: Logger | undefined, watermark: number | null) {
  const state: InboxHealth = {
    lastPollAt: null,
    lastOk: null,
    lastError: null,
    lastErrorAt: null,
    consecutiveFailures: 0,
    watermark,
    received: 0,
    backlogFrom: null,
  };
  const failed = (f: PollFailure, now: number) => {
    const repeated = state.consecutiveFailures > 0 && state.lastError === `${f.kind}: ${f.detail}`;
    state.lastOk = false;
    state.lastError = `${f.kind}: ${f.detail}`;
    state.lastErrorAt = now;
    state.consecutiveFailures++;
    // Once per streak (and when the reason changes): a missing permission would otherwise
    // log a line every poll, all day.
    if (!repeated)
      logger?.warn(
        { failure: f.kind, detail: f.detail, consecutiveFailures: state.consecutiveFailures },
        'inbox poll failed',
      );
  };
  return {
    state,
    failed,
    /** A throwing list function or an unwritable database: recorded, tried again next poll. */
    threw(err: unknown, now: number) {
      const e = err as { code?: unknown; message?: unknown };
      const kind = typeof e?.code === 'string' && e.code.startsWith('SQLITE_') ? 'storage' : 'error';
      failed({ kind, detail: String(e?.code ?? e?.message ?? err).slice(0, 300) }, now);
    },
    ok(fetched: Fetched, result: Committed) {
      if (state.consecutiveFailures > 0) logger?.info({ after: state.consecutiveFailures }, 'inbox poll works again');
      state.lastOk = true;
      state.consecutiveFailures = 0;
      state.watermark = result.watermark;
      state.received += result.made;
      state.backlogFrom = fetched.backlogFrom;
      if (fetched.capped) {
        logger?.warn(
          { pages: MAX_PAGES, from: fetched.backlogFrom, watermark: result.watermark },
          'inbox: more new messages than one poll reads; the next poll reads on from there',
        );
      }
      if (result.baseline)
        logger?.info({ watermark: result.watermark }, 'inbox watermark set; earlier messages are not replayed');
      if (result.made > 0) logger?.info({ events: result.made, watermark: result.watermark }, 'inbox: new messages');
    },
  };
}
