// sms-gateway send <to> [<to> ...] <message> [--queue] [--at TIME] [--sim N] [--tag K=V] [--json]:
// sends through the running gateway on loopback with the stored key, through the same
// client LAN users get: one recipient synchronously (the answer says whether the phone
// took it), or into the durable queue (several recipients, --queue, --at); --tag labels it
// (send-tags.ts). A queued send prints each recipient's outcome (send-outcome.ts).
import { loadConfig } from '../../core/config.js';
import { LOOPBACK_URL } from '../../core/runtime.js';
import { createClient, GatewayRequestError } from '../../client.js';
import type { CommandContext } from '../context.js';
import { existingApiKey } from '../existing-home.js';
import { parseWhen } from '../when.js';
import { sendErrorLine } from '../hints.js';
import { addTag, tagsField, type TagList } from './send-tags.js';
import { printQueueOutcome } from './send-outcome.js';

export const sendHelp = `Usage: sms-gateway send <to> [<to> ...] <message>
                        [--queue] [--at TIME] [--sim N] [--tag KEY=VALUE] [--json]

Sends SMS through the gateway running on this phone (${LOOPBACK_URL}).
  <to>        a recipient; several (up to 100) go through the queue
  <message>   the text (the last argument); "-" reads it from standard input
  --queue     hand it to the gateway's queue (answers at once; sent at the pace)
  --at TIME   queue it for later: HH:MM (the next such time here), or a date and time
              such as 2026-11-23T07:30 (local) or 2026-11-23T07:30:00+01:00
  --sim N     1-based SIM slot (default: SMS_GATEWAY_DEFAULT_SIM)
  --tag KEY=VALUE
              a label kept with the message and handed back with a reply (inReplyTo);
              repeatable, at most 8; KEY 1 to 32 letters, digits, _ . or -, VALUE at most 64
  --json      print the gateway's JSON answer instead of a summary
Without --queue: waits out a rate limit by itself (up to 60 s); exit 1 when not sent.
Queued: prints each recipient's outcome (an opted-out number is not queued); exit 1 when none was queued.
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
  let queued = false;
  let at: Date | undefined;
  const tags: TagList = new Map();
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--json') json = true;
    else if (a === '--queue') queued = true;
    else if (a === '--at') {
      const when = parseWhen(args[++i] ?? '', new Date());
      if (typeof when === 'string') return ctx.usage(`sms-gateway send: --at ${when}\n\n${sendHelp}`);
      at = when;
      queued = true;
    } else if (a === '--sim') {
      const v = args[++i];
      if (!v || !/^[1-8]$/.test(v))
        return ctx.usage(`sms-gateway send: --sim takes a slot number from 1 to 8\n\n${sendHelp}`);
      sim = Number(v);
    } else if (a === '--tag') {
      const refused = addTag(tags, args[++i]);
      if (refused) return ctx.usage(`sms-gateway send: ${refused}\n\n${sendHelp}`);
    } else if (a.startsWith('--')) return ctx.usage(`sms-gateway send: unknown option ${a}\n\n${sendHelp}`);
    else positional.push(a);
  }
  if (positional.length < 2) return ctx.usage(sendHelp);
  const recipients = positional.slice(0, -1);
  const rawMessage = positional.at(-1)!;
  if (recipients.length > 1) queued = true;
  const message = rawMessage === '-' ? await readStdin(ctx.stdin) : rawMessage;

  const config = loadConfig(ctx.env);
  const keyFile = existingApiKey(config.home, ctx.env);
  const client = createClient({ baseUrl: LOOPBACK_URL, apiKey: keyFile.current() });
  const options = { ...(sim !== undefined ? { simSlot: sim } : {}), ...tagsField(tags) };
  try {
    if (queued) {
      const records = await client.queue({
        to: recipients.length === 1 ? recipients[0]! : recipients,
        message,
        ...options,
        ...(at ? { sendAt: at } : {}),
      });
      if (!json) return printQueueOutcome(records, at, (line) => ctx.stdout.write(line));
      ctx.stdout.write(`${JSON.stringify(records)}\n`);
      return records.some((r) => r.status === 'queued') ? 0 : 1;
    }
    const r = await client.send({ to: recipients[0]!, message, ...options });
    if (json) ctx.stdout.write(`${JSON.stringify(r)}\n`);
    else {
      ctx.stdout.write(
        `Handed to the phone: ${r.messageId} (${r.segments} segment${r.segments === 1 ? '' : 's'}, ${r.encoding}, ` +
          `SIM ${r.simSlot}${r.mode === 'simulated' ? ', simulated' : ''})\n`,
      );
      if (r.warning) ctx.stdout.write(`${r.warning}\n`);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof GatewayRequestError)) throw err;
    if (json) ctx.stdout.write(`${JSON.stringify({ status: err.status, code: err.code, message: err.message })}\n`);
    ctx.stderr.write(sendErrorLine(err, keyFile.path, queued));
    return 1;
  }
}
