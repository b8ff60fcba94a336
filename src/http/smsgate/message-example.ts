// The example message state /openapi.json shows for SMSGate's message routes.
import type { SmsgateMessageState } from './message-schemas.js';

export const SMSGATE_MESSAGE_EXAMPLE: SmsgateMessageState = {
  id: 'V1StGXR8_Z5jdHi6B-myT',
  deviceId: 'PyDmBQZZXYmyxMwED8Fzy',
  state: 'Pending',
  isHashed: false,
  isEncrypted: false,
  textMessage: { text: 'Practice moved to 18:00' },
  recipients: [
    { phoneNumber: '+15551230001', state: 'Pending' },
    { phoneNumber: '+15551230002', state: 'Pending' },
  ],
  states: { Pending: '2026-11-23T06:30:00.000Z' },
};
