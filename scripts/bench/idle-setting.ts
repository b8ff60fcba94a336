// The release's idle setting for the gateway the bench starts as a process (the idle memory,
// CPU and wake-up figures): the e-mail intake on (SMS_GATEWAY_SMTP_PORT, a free port) and an
// SMSGate-dialect registration of system:ping (POST /webhooks with Basic sms:<key>, as an
// SMSGate client makes it) to the bench's receiver, which counts the pings it gets. Plain
// (`npm run bench -- --idle --plain`): neither, the defaults earlier releases were measured with.
import { accepts, freePort, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

/** The ping interval the idle gateway runs with (SMS_GATEWAY_PING_MINUTES unset). */
export const IDLE_PING_MINUTES = 15;

export interface IdleSetting {
  /** Neither the intake nor the registration (the defaults). */
  plain: boolean;
  smtpPort: number;
  receiver: WebhookReceiver;
  /** The environment that turns the e-mail intake on. */
  env: NodeJS.ProcessEnv;
}

export async function idleSetting(plain = false): Promise<IdleSetting> {
  const smtpPort = plain ? 0 : await freePort();
  const env = plain ? {} : { SMS_GATEWAY_SMTP_PORT: String(smtpPort) };
  return { plain, smtpPort, receiver: await startWebhookReceiver(), env };
}

/** Registers system:ping on the running gateway at `port`; throws unless it answers 201. */
export async function registerPing(port: number, key: string, setting: IdleSetting): Promise<void> {
  if (setting.plain) return;
  const res = await fetch(`http://127.0.0.1:${port}/webhooks`, {
    method: 'POST',
    headers: {
      authorization: `Basic ${Buffer.from(`sms:${key}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ id: 'bench-ping', url: setting.receiver.smsgateUrl('system:ping'), event: 'system:ping' }),
  });
  if (res.status !== 201) throw new Error(`POST /webhooks (system:ping) answered ${res.status}: ${await res.text()}`);
}

/** What was on, for the results: the port, whether it listens now, the registration and the pings so far. */
export async function describeSetting(setting: IdleSetting) {
  return {
    smtpPort: setting.plain ? null : setting.smtpPort,
    smtpListening: setting.plain ? false : await accepts(setting.smtpPort),
    smsgate: setting.plain ? [] : ['system:ping'],
    pingMinutes: IDLE_PING_MINUTES,
    pingsReceived: setting.receiver.smsgate('system:ping'),
  };
}

/** The setting in a line, for the printed tables and the results' notes. */
export function settingLine(s: Awaited<ReturnType<typeof describeSetting>>): string {
  if (s.smtpPort === null)
    return 'Idle figures with the defaults: no e-mail intake, no SMSGate registration (--plain).';
  return (
    `Idle figures with the e-mail intake on (SMTP port ${s.smtpPort}${s.smtpListening ? '' : ', NOT listening'}) and an ` +
    `SMSGate-dialect system:ping registration (every ${s.pingMinutes} min; ${s.pingsReceived} received during the phase).`
  );
}
