// sms-gateway simulate receive --from <number> <text>: puts an SMS into the simulated
// inbox of this home (device/simulated-inbox.ts). A gateway in simulated mode (no
// termux-sms-send on PATH) reads it like a phone's inbox: the message reaches
// GET /api/inbox and the webhooks at its next poll, as a real one would on a phone.
// It then asks the running gateway whether its inbox watcher runs: when it is off, the
// SMS is never shown (a watcher switched on later starts after it), so the command says
// how to switch it on and exits 1: the SMS it was asked to deliver will not arrive.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.js';
import { LOOPBACK_URL } from '../../core/runtime.js';
import { createApiKeyFile } from '../../core/keys.js';
import { createClient, GatewayRequestError } from '../../client.js';
import { appendSimulatedSms, SIMULATED_INBOX_FILE } from '../../device/simulated-inbox.js';
import type { Mode } from '../../core/runtime.js';
import { detectMode } from '../../server/run-gateway.js';
import type { CommandContext } from '../context.js';
import { requireHome } from '../existing-home.js';

export const simulateHelp = `Usage: sms-gateway simulate receive --from <number> <text>

Simulated mode only (a laptop, no termux-sms-send on PATH): puts an SMS from <number>
into the simulated inbox ($SMS_GATEWAY_HOME/${SIMULATED_INBOX_FILE}). The running gateway
reads it at its next inbox poll (SMS_GATEWAY_INBOX_POLL_SECONDS) when its inbox watcher
runs (SMS_GATEWAY_INBOX=true, a webhook target, or MQTT): it shows in GET /api/inbox and
goes to the webhooks as sms.received. Exit 1 when the running gateway's watcher is off
(the SMS is written, but never shown).
`;

export async function simulateCommand(args: string[], ctx: CommandContext): Promise<number> {
  const [action, ...rest] = args;
  let from: string | undefined;
  const texts: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === '--from') from = rest[++i];
    else texts.push(rest[i]!);
  }
  if (action !== 'receive' || from === undefined || texts.length !== 1) return ctx.usage(simulateHelp);
  if (from.trim() === '' || from.length > 64)
    return ctx.usage(`sms-gateway simulate: --from takes a sender of 1 to 64 characters\n\n${simulateHelp}`);
  const config = loadConfig(ctx.env);
  requireHome(config.home, ctx.env); // an inbox in a home no gateway reads would never show
  const id = appendSimulatedSms(config.home, { from: from.trim(), body: texts[0]! }, Date.now());
  ctx.stdout.write(`Put SMS ${id} from ${from.trim()} into the simulated inbox.\n`);
  let mode: Mode;
  try {
    mode = detectMode(config, ctx.env);
  } catch {
    mode = 'real'; // SMS_GATEWAY_MODE=real without termux-sms-send: the gateway would not start as simulated
  }
  if (mode === 'real') {
    ctx.stderr.write(
      "sms-gateway: note: the gateway runs in real mode here and reads the phone's inbox, not the simulated one.\n",
    );
    return 0;
  }
  return await watcherCheck(config.home, ctx);
}

/** Asks the gateway on this phone whether its inbox watcher runs (GET /api/inbox: 503 inbox_disabled when off). */
async function watcherCheck(home: string, ctx: CommandContext): Promise<number> {
  const keyFile = createApiKeyFile(home);
  const notRunning =
    `sms-gateway: note: no gateway answers on ${LOOPBACK_URL}: start it with its inbox watcher on ` +
    `(SMS_GATEWAY_INBOX=true, a webhook target, or MQTT), then simulate again (an SMS already in the inbox when a ` +
    `watcher first runs is taken as old).\n`;
  if (!existsSync(keyFile.path)) {
    ctx.stderr.write(notRunning);
    return 0;
  }
  try {
    await createClient({ baseUrl: LOOPBACK_URL, apiKey: keyFile.current(), maxRetries: 0, timeoutMs: 5000 }).inbox({
      limit: 1,
    });
    return 0;
  } catch (err) {
    if (!(err instanceof GatewayRequestError)) throw err;
    if (err.code === 'inbox_disabled') {
      ctx.stderr.write(
        "sms-gateway: but the running gateway's inbox watcher is off, so it never reads this SMS " +
          '(a watcher switched on later starts after it). ' +
          `Switch it on: SMS_GATEWAY_INBOX=true in ${join(home, '.env')} and restart the gateway, or add a webhook ` +
          `target (\`sms-gateway webhook add <url>\`), or connect MQTT (SMS_GATEWAY_MQTT_URL); then simulate again.\n`,
      );
      return 1;
    }
    if (err.status === 0) ctx.stderr.write(notRunning);
    return 0; // another answer (another home's key, ...): the SMS is written; nothing more to say here
  }
}
