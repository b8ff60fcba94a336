// `sms-gateway send --queue` (or --at, or several recipients): what the gateway made of each
// recipient, printed from the records it answered. A recipient on the opt-out list is
// recorded at once as failed (reason opted_out) and never sent, so the summary counts only
// the records still queued, names each other one with its status and reason, and the exit
// code is 1 when not one message was queued.
import type { MessageRecord } from '../../client.js';

const REASON_TEXT: Partial<Record<string, string>> = {
  opted_out: 'on the opt-out list, never sent',
  expired: 'its expiresAt had passed',
};

function outcome(r: MessageRecord): string {
  if (r.status === 'queued') return 'queued';
  const reason = r.reason ? `, ${r.reason}: ${REASON_TEXT[r.reason] ?? 'see `GET /api/messages/<id>`'}` : '';
  return `not queued (${r.status}${reason})`;
}

const messages = (n: number) => `${n} message${n === 1 ? '' : 's'}`;

/** Writes the summary of a queued send; returns the exit code (1 when nothing was queued). */
export function printQueueOutcome(records: MessageRecord[], at: Date | undefined, write: (s: string) => void): number {
  const queued = records.filter((r) => r.status === 'queued').length;
  const when = at ? ` for ${at.toISOString()}` : '';
  const all = messages(records.length);
  if (queued === records.length) write(`Queued ${all}${when}; the gateway sends them at its pace:\n`);
  else if (queued > 0) write(`Queued ${queued} of ${all}${when}; the gateway sends those at its pace:\n`);
  else write(`Queued none of ${all}:\n`);
  for (const r of records) write(`  ${r.id}  ${r.to}  ${outcome(r)}\n`);
  if (queued === 0) return 1;
  write('See them with `sms-gateway queue`; cancel one with `sms-gateway queue cancel <id>`.\n');
  return 0;
}
