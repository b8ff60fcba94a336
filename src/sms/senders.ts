// Senders: hand one SMS to the phone. The termux sender runs termux-sms-send with the
// number as its own argv element and the text on stdin (never in argv: the script would
// echo it, reading a leading "-" as an option and expanding backslashes). A slot the phone
// has since said it lacks is not handed over (Termux:API would fail silently, exit 0). The
// simulated sender touches no radio.
import { runCommand } from '../device/termux.js';
import { describeGroup } from '../device/kill-leftover.js';
import type { Simulation } from '../core/runtime.js';
import type { HandoffRequest, HandoffHooks, HandoffResult } from './handoff.js';

export interface Sender {
  send(h: HandoffRequest, hooks?: HandoffHooks): Promise<HandoffResult>;
}

export function termuxSmsArgs(h: HandoffRequest): string[] {
  // termux-sms-send's -s is the 0-based physical slot.
  return ['-n', h.number, '-s', String(h.simSlot - 1)];
}

export interface TermuxSenderOptions {
  timeoutMs: number;
  env?: NodeJS.ProcessEnv;
  bootId?: string | null;
  /** The SIM slots the phone has, read when not fresh; null (or absent): it cannot tell, no slot refused. */
  simCount?: () => Promise<number | null>;
}

export function createTermuxSender(opts: TermuxSenderOptions): Sender {
  const bootId = opts.bootId ?? null;
  return {
    async send(h, hooks) {
      // A message accepted before the phone told its count may name a slot it lacks (the
      // default slot of the gateway's own messages is not read at acceptance): slot 1 is on every phone.
      const simCount = h.simSlot > 1 ? ((await opts.simCount?.()) ?? null) : null;
      if (simCount !== null && h.simSlot > simCount) {
        const slots = `${simCount} SIM slot${simCount === 1 ? '' : 's'}`;
        return {
          ok: false,
          reason: 'termux_api_error',
          detail: `SIM slot ${h.simSlot} does not exist; this phone reports ${slots}`,
        };
      }
      const r = await runCommand('termux-sms-send', termuxSmsArgs(h), {
        timeoutMs: opts.timeoutMs,
        input: h.text,
        expect: 'none',
        ...(hooks?.onStarted ? { onSpawn: (pid: number) => hooks.onStarted!(describeGroup(pid, bootId)) } : {}),
        ...(opts.env ? { env: opts.env } : {}),
      });
      if (r.ok) return { ok: true };
      switch (r.failure) {
        case 'not_found':
          return { ok: false, reason: 'sender_unavailable', detail: r.detail };
        case 'timeout':
          return { ok: false, reason: 'timeout', detail: r.detail };
        case 'permission_denied':
          return { ok: false, reason: 'permission_denied', detail: r.detail };
        default:
          return { ok: false, reason: 'termux_api_error', detail: r.detail };
      }
    },
  };
}

export function createSimulatedSender(outcome: Simulation, random: () => number = Math.random): Sender {
  return {
    async send() {
      const fail = outcome === 'failure' || (outcome === 'random' && random() < 0.1);
      return fail
        ? { ok: false, reason: 'simulated_failure', detail: `simulated failure (SMS_GATEWAY_SIMULATION=${outcome})` }
        : { ok: true };
    },
  };
}
