// Every error code's messages, written once: per code, each way it can be refused, as a
// text or a builder of the few values it needs (an id, a limit, seconds). A construction
// site names the code and the text and passes only those values: gatewayError in
// core/errors.ts builds the error from here. The HTTP status of a code is in
// http/error-status.ts, not here (core speaks no transport).

/**
 * "larger than 16 KB" for a limit in bytes: one wording for the HTTP body, the MQTT payload and the 413's description.
 */
export const largerThan = (limitBytes: number) => `larger than ${limitBytes / 1024} KB`;

/** The history keeps the newest 1000 settled messages (store/messages.ts). */
const HISTORY_KEEPS = 'it keeps the newest 1000 settled ones';

export const ERROR_MESSAGES = {
  invalid_request: {
    /** A problem another part words (validation, a recipient, a webhook URL): named after "Invalid request:". */
    problem: (what: string) => `Invalid request: ${what}`,
    unspecified: () => 'Invalid request.',
    pathSegmentTooLong: () => 'Invalid request: a path segment is too long.',
    badUrl: () => 'Invalid request: the URL is not valid.',
    bodyNotUtf8: () => 'Invalid request: the body is not valid UTF-8.',
    bodyNotJson: () => 'Request body is not valid JSON.',
    requestTimeout: () => 'The request was not complete in time.',
    headersTooLarge: () => 'The request headers are too large.',
    notHttp: () => 'The request is not valid HTTP.',
    idempotencyKeyHeader: () =>
      'Invalid request: Idempotency-Key must be one header of 1 to 128 printable ASCII characters.',
    idempotencyKeyReused: () => 'Idempotency-Key reused with a different request.',
    messageEmpty: () => 'Invalid request: body.message is empty.',
    messageInvisible: () =>
      'Invalid request: body.message has no visible character (only spaces, control or format characters, or ' +
      'combining marks without a letter).',
    messageSurrogate: () => 'Invalid request: body.message contains a lone UTF-16 surrogate (broken emoji?).',
    noSimSlot: (which: string, simCount: number) =>
      `Invalid request: ${which} does not exist; this phone reports ${simCount} SIM slot${simCount === 1 ? '' : 's'}.`,
    sameRecipient: (where: string, twin: number) =>
      `Invalid request: ${where} is the same number as body.to[${twin}]; each recipient gets one message.`,
    sendAtTooFar: () => 'Invalid request: body.sendAt is more than 30 days ahead.',
    expiresTooEarly: (than: 'sendAt' | 'now') => `Invalid request: body.expiresAt must be later than ${than}.`,
    payloadNotUtf8: () => 'Invalid request: the payload is not valid UTF-8.',
    payloadNotJson: () => 'Invalid request: the payload is not valid JSON.',
    noContact: (level: string) => `Invalid request: no contact "${level}" in SMS_GATEWAY_CONTACTS.`,
  },
  message_too_long: {
    segments: (segments: number, encoding: string, budget: number) =>
      `Message is ${segments} segments long (${encoding}); at most ${budget} fit the per-minute send budget. ` +
      `Shorten it or split it into several messages.`,
  },
  not_found: {
    route: (method: string, path: string) => `No route ${method} ${path}.`,
    unknownRoute: () => 'No such route.',
    /** Without an id when it is too long to echo. */
    message: (id?: string) =>
      `No ${id === undefined ? 'such message' : `message ${id}`} in the history (${HISTORY_KEEPS}).`,
    /** Without an id when it is too long to echo. */
    webhookTarget: (id?: string) => `No ${id === undefined ? 'such webhook target' : `webhook target ${id}`}.`,
    optOut: (number: string) => `${number} is not on the opt-out list.`,
    rule: (id: string) => `No keyword rule ${id}.`,
    /** DELETE /devices/:id: SMSGate's cloud server removes devices; the phone cannot remove itself. */
    removableDevice: () =>
      'No device to remove: this phone is the one device and stays (SMSGate removes devices on its cloud server only).',
    consoleNotBuilt: () => "The console is not built: run npm run build in the gateway's folder.",
  },
  payload_too_large: {
    body: (limitBytes: number) => `Request body is ${largerThan(limitBytes)}.`,
    mqttPayload: (limitBytes: number) => `The payload is ${largerThan(limitBytes)}.`,
  },
  unsupported_media_type: {
    notJson: () => 'Send the body as JSON with Content-Type: application/json.',
  },
  rate_limited: {
    perAddress: (perSecond: number, seconds: number) =>
      `Too many requests from this address (about ${perSecond} per second allowed); retry in ${seconds} s.`,
  },
  send_rate_limited: {
    spacing: (seconds: number) => `Sends must be at least 1 second apart; retry in ${seconds} s.`,
    budget: (budget: number, segments: number, seconds: number) =>
      `The send budget (${budget} segments per minute) is used up; this ${segments}-segment message fits in ` +
      `${seconds} s.`,
  },
  send_failed: {
    /** After a timeout nobody knows whether the phone sends it (`unknown`), so it says so. */
    handOff: (unknown: boolean, reason: string, detail: string | undefined, hint: string) =>
      `${unknown ? 'Whether the SMS goes out is unknown' : 'The SMS was not sent'} ` +
      `(${reason}${detail ? `: ${detail}` : ''}). ${hint}`,
  },
  sms_disabled: {
    switchedOff: () => 'Sending is switched off on this gateway (SMS_GATEWAY_SMS_ENABLED=false).',
  },
  storage_unavailable: {
    /** What did not happen, and that it recovers by itself. */
    database: (notDone: 'sent' | 'queued' | 'changed') =>
      `The gateway cannot write its database (disk full, read-only, or deleted?); nothing was ${notDone}. Free some ` +
      `space on the phone; the gateway recovers by itself (a deleted database needs a restart).`,
    keyFile: () =>
      'The gateway cannot write its key file (disk full or read-only?); the key was not changed. Free some space on ' +
      'the phone and try again.',
  },
  sender_busy: {
    restarted: (seconds: number) =>
      `The gateway restarted while handing this message to the phone; it is looking for it in the phone's SMS ` +
      `store. Repeat this request (same Idempotency-Key) in ${seconds} s for its outcome; it is never sent twice.`,
    noSlot: (seconds: number) =>
      `The phone did not take a message within ${seconds} s (a hand-off is hanging, or the gateway is stopping); ` +
      `nothing was recorded or sent. Retry later, or use POST /api/messages to let the gateway's queue send it.`,
  },
  queue_full: {
    waiting: (waiting: number, limit: number) =>
      `The queue holds ${waiting} waiting messages (at most ${limit}); nothing was queued. Retry when it has ` +
      `drained, or cancel waiting messages.`,
  },
  not_cancellable: {
    because: (id: string, why: string) => `Message ${id} cannot be cancelled: ${why}.`,
  },
  inbox_disabled: {
    notRead: () =>
      'Received messages are not read: set SMS_GATEWAY_INBOX=true (in $SMS_GATEWAY_HOME/.env) and restart the ' +
      'gateway, or register a webhook target (POST /api/webhooks).',
  },
  too_many_webhooks: {
    atMost: (max: number) =>
      `At most ${max} webhook targets can be registered over the API; remove one first (DELETE /api/webhooks/{id}).`,
  },
  webhook_from_environment: {
    fromEnv: (id: string) =>
      `Webhook target ${id} comes from SMS_GATEWAY_WEBHOOK_URLS: remove it there and restart the gateway.`,
  },
  retained_refused: {
    retainFlag: () =>
      'A send request published with the retain flag is never sent (the broker would give it again at every ' +
      'subscribe). Publish it without the flag, and clear the retained one (an empty retained message on the same ' +
      'topic).',
  },
  recipient_opted_out: {
    listed: (number: string) =>
      `${number} is on the opt-out list (it texted STOP, or was added over the API); nothing was sent. It comes off ` +
      `when it texts START, or with DELETE /api/opt-outs/{number}.`,
  },
  too_many_rules: {
    atMost: (max: number) => `At most ${max} keyword rules can exist; remove one first (DELETE /api/rules/{id}).`,
  },
  internal_error: {
    logged: () => 'Internal error; the gateway logged the details.',
  },
} as const;
