// How many messages settled as sent and as failed after a time: SMSGate's `messages:failed`
// health check (status/smsgate-health.ts). One count through index messages_settled (settled
// rows by updated_at), so its work is the last hour's settlements, not the history's.
import type { Db } from './database.js';

export interface RecentOutcomes {
  sent: number;
  failed: number;
}

export function createRecentOutcomes(db: Db) {
  const countStmt = db.prepare(`
    SELECT COALESCE(SUM(status = 'sent'), 0) AS sent, COALESCE(SUM(status = 'failed'), 0) AS failed
    FROM messages WHERE status != 'queued' AND updated_at > @since`);
  return {
    /** The messages settled sent and failed after `since` (wall-clock ms). */
    since: (since: number): RecentOutcomes => countStmt.get({ since }) as RecentOutcomes,
  };
}
