// Fills a test app's queue with waiting messages straight in the database (thousands in one
// transaction, not through the API), to the number `room` short of the queue's limit: for
// the queue_full tests. The messages go to 1234, so a test can tell them from its own.
import type { Db } from '../../src/store/database.js';
import { QUEUE_LIMIT } from '../../src/store/queue.js';
import { newMessageId } from '../../src/core/ids.js';
import type { Clock } from '../../src/core/clock.js';

/** The number the filler messages go to. */
export const FILLER_NUMBER = '1234';

/** Leaves room for exactly `room` more waiting messages. */
export function fillQueue(db: Db, clock: Clock, room: number): void {
  const insert =
    db.prepare(`INSERT INTO messages (id, to_number, send_to, body, segments, encoding, sim_slot, status, source_ip,
    created_at, updated_at, stats_day, via, due_at) VALUES (@id, '${FILLER_NUMBER}', '${FILLER_NUMBER}', 'x', 1, 'gsm7', 1, 'queued', '10.0.0.1', @at, @at, '2026-11-21', 'queue', @at)`);
  db.transaction(() => {
    for (let i = 0; i < QUEUE_LIMIT - room; i++) insert.run({ id: newMessageId(clock.now()), at: clock.now() + i });
  })();
}
