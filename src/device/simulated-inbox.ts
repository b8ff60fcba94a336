// The simulated inbox of a gateway without a phone (simulated mode): the file
// $SMS_GATEWAY_HOME/simulated-inbox.jsonl, one received SMS per line
// {"id":n,"from":"+1555...","body":"...","at":<ms>}. `sms-gateway simulate receive` appends
// to it; the inbox watcher reads it in place of termux-sms-list, with the same entries and
// paging (the newest `limit` after skipping `offset`, printed oldest first), so an inbound
// SMS reaches GET /api/inbox and the webhooks on a laptop. Unreadable lines are skipped.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { localTimeText, type SmsEntry, type SmsListResult, type SmsBox } from './sms-list.js';

export const SIMULATED_INBOX_FILE = 'simulated-inbox.jsonl';

const LineSchema = z.object({
  id: z.number().int().positive(),
  from: z.string(),
  body: z.string(),
  at: z.number().int(),
});

type Line = z.infer<typeof LineSchema>;

function readLines(path: string): Line[] {
  if (!existsSync(path)) return [];
  const out: Line[] = [];
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue;
    try {
      const parsed = LineSchema.safeParse(JSON.parse(text));
      if (parsed.success) out.push(parsed.data);
    } catch {
      // a line cut short by a crash: skipped
    }
  }
  return out;
}

/** Appends one received SMS (its id one above the highest so far); returns that id. */
export function appendSimulatedSms(home: string, sms: { from: string; body: string }, nowMs: number): number {
  const path = join(home, SIMULATED_INBOX_FILE);
  const id = readLines(path).reduce((m, l) => Math.max(m, l.id), 0) + 1;
  appendFileSync(path, `${JSON.stringify({ id, from: sms.from, body: sms.body, at: nowMs })}\n`, { mode: 0o600 });
  return id;
}

/** A termux-sms-list stand-in over the simulated inbox; times are shown in `timeZone()`. */
export function simulatedSmsList(home: string, timeZone: () => string) {
  const path = join(home, SIMULATED_INBOX_FILE);
  return async (opts: { box: SmsBox; limit: number; offset?: number }): Promise<SmsListResult> => {
    if (opts.box !== 'inbox' && opts.box !== 'all') return { ok: true, entries: [] };
    let lines: Line[];
    try {
      lines = readLines(path);
    } catch (err) {
      return {
        ok: false,
        failure: 'api_error',
        detail: `cannot read ${SIMULATED_INBOX_FILE}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
      };
    }
    const tz = timeZone();
    const end = Math.max(0, lines.length - (opts.offset ?? 0));
    const entries: SmsEntry[] = lines.slice(Math.max(0, end - opts.limit), end).map((l) => ({
      id: l.id,
      threadId: null,
      type: 'inbox',
      address: l.from,
      sender: null,
      received: localTimeText(l.at, tz),
      body: l.body,
      read: false,
    }));
    return { ok: true, entries };
  };
}
