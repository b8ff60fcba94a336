// A message as SMSGate's message state: its id, this phone's device id, the state worked out from
// its recipients' (sms/smsgate-state.ts), each recipient as the caller wrote it with its state and
// a failure's reason, and when each state was reached. The text only when asked (includeContent).
import { messageState, recipientState, stateTimes } from '../../sms/smsgate-state.js';
import type { SmsgateMessage } from '../../sms/smsgate-messages.js';
import type { SmsgateMessageState } from './message-schemas.js';

export function renderMessageState(
  message: SmsgateMessage,
  deviceId: string,
  includeContent: boolean,
): SmsgateMessageState {
  const recipients = message.rows.map((row) => {
    const { state, error } = recipientState(row);
    return error === undefined ? { phoneNumber: row.to, state } : { phoneNumber: row.to, state, error };
  });
  const states = Object.fromEntries(
    Object.entries(stateTimes(message.rows)).map(([state, at]) => [state, new Date(at).toISOString()]),
  );
  const first = message.rows[0];
  return {
    id: message.id,
    deviceId,
    state: messageState(recipients.map((r) => r.state)),
    isHashed: false,
    isEncrypted: false,
    ...(includeContent && first ? { textMessage: { text: first.body } } : {}),
    ...(first?.sendAt != null ? { scheduleAt: new Date(first.sendAt).toISOString() } : {}),
    recipients,
    states,
  };
}
