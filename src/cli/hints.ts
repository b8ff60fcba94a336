// What to do after the running gateway refused or could not answer a command: one line
// each, for the commands that talk to it over loopback (send, queue, status, webhook).
import type { GatewayRequestError } from '../client.js';

/** The gateway refused this home's key: it was started with another SMS_GATEWAY_HOME. */
export function keyRefusedHint(keyPath: string): string {
  return (
    `the running gateway does not accept the API key in ${keyPath}, so it was started with another home. ` +
    'Run this command with SMS_GATEWAY_HOME set to that home (the default is ~/.sms-gateway)'
  );
}

/**
 * The whole error line of `send`: "not sent: " (or "not queued: ") before the reason, except
 * after a failed hand-off, whose message says itself what happened (not sent, or unknown after
 * a timeout: never "not sent" then).
 */
export function sendErrorLine(err: GatewayRequestError, keyPath: string, queued: boolean): string {
  const what = err.code === 'send_failed' ? '' : `not ${queued ? 'queued' : 'sent'}: `;
  return `sms-gateway: ${what}${describeRequestError(err, keyPath)}\n`;
}

/** The error line's text after "sms-gateway: ": the gateway's message and what to do. */
export function describeRequestError(err: GatewayRequestError, keyPath: string): string {
  if (err.status === 401) return `${err.message}: ${keyRefusedHint(keyPath)}`;
  if (err.code === 'unreachable') return `${err.message} (is \`sms-gateway start\` running?)`;
  return err.message;
}
