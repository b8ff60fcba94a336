// Why a message was not sent, in words: one hint per failure reason (what to do about
// it), used by the send_failed answer, the sent-box confirmation and diagnostics.
import { gatewayError, type GatewayError } from '../core/errors.js';
import type { Reason } from '../store/message-record.js';

export const REASON_HINTS: Record<Reason, string> = {
  permission_denied:
    'Termux:API has no permission to send SMS: on the phone open Settings > Apps > Termux:API > Permissions and ' +
    'allow SMS (and Phone).',
  termux_api_error: 'Termux:API reported an error; run `sms-gateway doctor` on the phone.',
  timeout:
    'termux-sms-send did not answer in time (is the Termux:API app installed, and not frozen or ' +
    'battery-restricted?), so the phone may still send it; the gateway records it as failed and never resends it. ' +
    "Before sending again, look in the phone's sent messages (in Termux: `termux-sms-list -t sent -l 5`).",
  sender_unavailable: 'termux-sms-send is not installed: run `pkg install termux-api` and install the Termux:API app.',
  interrupted:
    'The gateway stopped while handing this message over. It is never resent automatically; check the phone before ' +
    'sending again.',
  simulated_failure: 'This is a simulated failure (simulated mode); no radio was used.',
  not_in_sent_box: "The phone's SMS store lists this message as failed.",
  unconfirmed: "The phone's SMS store could not confirm this message.",
  expired: 'The message was still waiting in the queue at its expiresAt; it was never handed off.',
  opted_out:
    'The recipient is on the opt-out list (they texted STOP, or it was added over the API); it was never handed ' +
    'off. See GET /api/opt-outs.',
};

/** The send_failed error for a reason: after a timeout nobody knows whether the phone sends it, so it says so. */
export function failureError(reason: Reason, detail?: string): GatewayError {
  return gatewayError('send_failed', 'handOff', reason === 'timeout', reason, detail, REASON_HINTS[reason]);
}
