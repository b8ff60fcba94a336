// sms-gateway queue [--json] | queue cancel <id>: what waits in the running gateway's
// queue (oldest first, with when each may leave), and cancelling one before it is handed off.
import { loadConfig } from '../../core/config.js';
import { LOOPBACK_URL } from '../../core/runtime.js';
import { createClient, GatewayRequestError, type MessageRecord } from '../../client.js';
import type { CommandContext } from '../context.js';
import { existingApiKey } from '../existing-home.js';
import { describeRequestError } from '../hints.js';

export const queueHelp = `Usage: sms-gateway queue [--json]
       sms-gateway queue cancel <id>

Lists the messages waiting in the gateway running on this phone (${LOOPBACK_URL}),
or cancels one whose hand-off to the phone has not started.
`;

export async function queueCommand(args: string[], ctx: CommandContext): Promise<number> {
  const [sub, ...rest] = args;
  const cancel = sub === 'cancel';
  if (cancel ? rest.length !== 1 : args.some((a) => a !== '--json')) return ctx.usage(queueHelp);
  const config = loadConfig(ctx.env);
  const keyFile = existingApiKey(config.home, ctx.env);
  const client = createClient({ baseUrl: LOOPBACK_URL, apiKey: keyFile.current(), maxRetries: 0, timeoutMs: 10_000 });
  try {
    if (cancel) {
      const r = await client.cancel(rest[0]!);
      ctx.stdout.write(`Cancelled ${r.id} (to ${r.to}); it will not be sent.\n`);
      return 0;
    }
    const waiting: MessageRecord[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await client.messages({ status: 'queued', limit: 100, offset });
      waiting.push(...page.data);
      if (!page.pagination.hasNext) break;
    }
    waiting.reverse(); // oldest first
    if (args.includes('--json')) {
      ctx.stdout.write(`${JSON.stringify(waiting, null, 2)}\n`);
      return 0;
    }
    if (waiting.length === 0) {
      ctx.stdout.write('Nothing waits in the queue.\n');
      return 0;
    }
    ctx.stdout.write(`${waiting.length} message${waiting.length === 1 ? '' : 's'} queued (oldest first):\n`);
    for (const r of waiting) {
      const when = r.sendAt ? `not before ${r.sendAt}` : 'as soon as the pace allows';
      ctx.stdout.write(`  ${r.id}  ${r.to}  ${when}${r.expiresAt ? `, expires ${r.expiresAt}` : ''}\n`);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof GatewayRequestError)) throw err;
    ctx.stderr.write(`sms-gateway: ${describeRequestError(err, keyFile.path)}\n`);
    return 1;
  }
}
