// The dispatcher: one hand-off at a time, in arrival order. Right before each hand-off
// the message is marked as started (committed), so a crash during it reads as
// "interrupted" at the next start, and the gateway never hands it off again.
import type { Sender, Handoff, HandoffResult } from './senders.js';

export interface DispatchJob {
  handoff: Handoff;
  /** Called (synchronously) right before the sender is invoked. */
  beforeHandoff(): void;
}

export function createDispatcher(sender: Sender) {
  let tail: Promise<unknown> = Promise.resolve();
  let inFlight = 0;
  return {
    dispatch(job: DispatchJob): Promise<HandoffResult> {
      inFlight++;
      const run = tail.then(async (): Promise<HandoffResult> => {
        try {
          job.beforeHandoff();
          return await sender.send(job.handoff);
        } finally {
          inFlight--;
        }
      });
      tail = run.catch(() => undefined);
      return run;
    },
    /** Hand-offs waiting or running. */
    pending: () => inFlight,
    /** Resolves when every hand-off accepted so far has finished. */
    idle: () => tail.then(() => undefined),
  };
}

export type Dispatcher = ReturnType<typeof createDispatcher>;
