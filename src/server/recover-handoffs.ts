// Start step 2: messages a crash interrupted during their hand-off. What is left of each
// hand-off's process group is ended first (same boot only, src/device/kill-leftover.ts);
// then, with a sent box to read (real mode), the confirmer looks the messages up there
// (src/sms/confirmation.ts); without one they are failed/interrupted at once. Never resent.
// Runs before the lane, so no hand-off of this process can be mistaken for an interrupted one.
import type { Logger } from 'pino';
import type { ProcessGroup } from '../core/ids.js';
import type { LeftoverResult } from '../device/kill-leftover.js';
import type { Confirmer } from '../sms/confirmation.js';
import type { MessageRow, MessageStore } from '../store/messages.js';

export interface RecoverDeps {
  messages: Pick<MessageStore, 'unfinishedHandoffs' | 'settleInterrupted'>;
  confirmer: Pick<Confirmer, 'adopt'> | undefined;
  endLeftover: (group: ProcessGroup) => LeftoverResult;
  logger?: Logger | undefined;
}

/** Returns the messages settled failed/interrupted now (the others are being looked up). */
export function recoverHandoffs(deps: RecoverDeps, now: number): MessageRow[] {
  const unfinished = deps.messages.unfinishedHandoffs();
  for (const { row, group } of unfinished) {
    if (!group) continue;
    const result = deps.endLeftover(group);
    deps.logger?.info({ id: row.id, pgid: group.pgid, result }, "an interrupted hand-off's process group");
  }
  // Real mode: a hand-off that began may have reached the phone; its sent box tells.
  const lookFor = deps.confirmer ? unfinished.filter((u) => u.row.handoffStartedAt !== null).map((u) => u.row) : [];
  deps.confirmer?.adopt(lookFor);
  if (lookFor.length > 0) {
    deps.logger?.warn(
      { ids: lookFor.map((r) => r.id) },
      "hand-offs interrupted by a stop: looking for them in the phone's SMS store",
    );
  }
  const interrupted = deps.messages.settleInterrupted(
    unfinished.filter((u) => !lookFor.includes(u.row)).map((u) => u.row.id),
    now,
  );
  if (interrupted.length > 0) {
    deps.logger?.warn(
      { ids: interrupted.map((r) => r.id) },
      'messages interrupted by a stop during hand-off are marked failed (never resent)',
    );
  }
  return interrupted;
}
