// sms-gateway send <to> <message> [--sim N] [--json]: sends through the running gateway
// on loopback with the stored key, through the same client LAN users get.
import { loadConfig } from '../../core/config.js';
import { LOOPBACK_URL } from '../../core/constants.js';
import { createApiKeyFile } from '../../core/keys.js';
import { createClient, GatewayError } from '../../client.js';
import type { CommandContext } from '../context.js';

export const sendHelp = `Usage: sms-gateway send <to> <message> [--sim N] [--json]

Sends one SMS through the gateway running on this phone (${LOOPBACK_URL}).
  <message>   the text; "-" reads it from standard input
  --sim N     1-based SIM slot (default: SMS_GATEWAY_DEFAULT_SIM)
  --json      print the gateway's JSON answer instead of a summary
Waits out a rate limit by itself (up to 60 s). Exit 1 when the SMS was not sent.
`;

async function readStdin(stdin: CommandContext['stdin']): Promise<string> {
  let text = '';
  for await (const chunk of stdin as AsyncIterable<Buffer | string>) text += chunk.toString();
  return text.replace(/\r?\n$/, '');
}

export async function sendCommand(args: string[], ctx: CommandContext): Promise<number> {
  const positional: string[] = [];
  let sim: number | undefined;
  let json = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--sim') {
      const v = args[++i];
      if (!v || !/^[1-8]$/.test(v)) return ctx.usage(`sms-gateway send: --sim takes a slot number from 1 to 8\n\n${sendHelp}`);
      sim = Number(v);
    } else if (a.startsWith('--')) return ctx.usage(`sms-gateway send: unknown option ${a}\n\n${sendHelp}`);
    else positional.push(a);
  }
  if (positional.length !== 2) return ctx.usage(sendHelp);
  const [to, rawMessage] = positional as [string, string];
  const message = rawMessage === '-' ? await readStdin(ctx.stdin) : rawMessage;

  const config = loadConfig(ctx.env);
  const client = createClient({ baseUrl: LOOPBACK_URL, apiKey: createApiKeyFile(config.home).current() });
  try {
    const r = await client.send({ to, message, ...(sim !== undefined ? { simSlot: sim } : {}) });
    if (json) ctx.stdout.write(`${JSON.stringify(r)}\n`);
    else {
      ctx.stdout.write(
        `Handed to the phone: ${r.messageId} (${r.segments} segment${r.segments === 1 ? '' : 's'}, ${r.encoding}, SIM ${r.simSlot}${r.mode === 'simulated' ? ', simulated' : ''})\n`,
      );
      if (r.warning) ctx.stdout.write(`${r.warning}\n`);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    if (json) ctx.stdout.write(`${JSON.stringify({ status: err.status, code: err.code, message: err.message })}\n`);
    const hint = err.code === 'unreachable' ? ' (is `sms-gateway start` running?)' : '';
    ctx.stderr.write(`sms-gateway: not sent: ${err.message}${hint}\n`);
    return 1;
  }
}
