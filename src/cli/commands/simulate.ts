// sms-gateway simulate receive --from <number> <text>: puts an SMS into the simulated
// inbox of this home (device/simulated-inbox.ts). A gateway in simulated mode (no
// termux-sms-send on PATH) reads it like a phone's inbox: the message reaches
// GET /api/inbox and the webhooks at its next poll, as a real one would on a phone.
import { loadConfig } from '../../core/config.js';
import { appendSimulatedSms, SIMULATED_INBOX_FILE } from '../../device/simulated-inbox.js';
import type { Mode } from '../../core/runtime.js';
import { detectMode } from '../../server/run-gateway.js';
import type { CommandContext } from '../context.js';
import { requireHome } from '../existing-home.js';

export const simulateHelp = `Usage: sms-gateway simulate receive --from <number> <text>

Simulated mode only (a laptop, no termux-sms-send on PATH): puts an SMS from <number>
into the simulated inbox ($SMS_GATEWAY_HOME/${SIMULATED_INBOX_FILE}). The running gateway
reads it at its next inbox poll (SMS_GATEWAY_INBOX_POLL_SECONDS) when its inbox watcher
runs (SMS_GATEWAY_INBOX=true or a webhook target): it shows in GET /api/inbox and goes
to the webhooks as sms.received.
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
  if (from.trim() === '' || from.length > 64) return ctx.usage(`sms-gateway simulate: --from takes a sender of 1 to 64 characters\n\n${simulateHelp}`);
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
  if (mode === 'real') ctx.stderr.write('sms-gateway: note: the gateway runs in real mode here and reads the phone\'s inbox, not the simulated one.\n');
  return 0;
}
