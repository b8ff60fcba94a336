// sms-gateway webhook list | add <url> | remove <id> | test | secret | rotate. list, add,
// remove and test go through the running gateway's API (/api/webhooks) with the key of
// this home, so they see and test the targets the gateway really has (its own
// SMS_GATEWAY_WEBHOOK_URLS and those registered over the API), not this shell's. The
// secret signs every event (Standard Webhooks); a rotation takes effect on the running
// gateway's next delivery.
import { loadConfig } from '../../core/config.js';
import { LOOPBACK_URL } from '../../core/runtime.js';
import { createApiKeyFile } from '../../core/keys.js';
import { createWebhookSecretFile } from '../../events/signing.js';
import { createClient, GatewayRequestError, type WebhookTestResult } from '../../client.js';
import type { CommandContext } from '../context.js';
import { existingApiKey, requireHome, requireSecret } from '../existing-home.js';
import { describeRequestError } from '../hints.js';

export const webhookHelp = `Usage: sms-gateway webhook list [--json] | add <url> | remove <id> | test | secret | rotate

  list         the running gateway's targets: id, source (env: SMS_GATEWAY_WEBHOOK_URLS,
               api: registered over the API), on/off, URL
  add <url>    register an http(s) target; it receives every event from now on
  remove <id>  remove a target registered over the API (env targets: edit .env, restart)
  test         the running gateway sends a signed "gateway.test" event to each of its
               targets; prints each answer (exit 1 if any did not answer 2xx, or none exists)
  secret       print the signing secret (whsec_...), for your receiver
  rotate       replace the secret; the running gateway signs with the new one from its next delivery

list, add, remove and test need the gateway running on this phone (${LOOPBACK_URL}).
`;

/** What a failed test answer most likely means, and what to do about it. */
export function failureHint(status: number | null, secretPath: string): string {
  if (status === 401 || status === 403) {
    return (
      `: the receiver refused the signature. The likely cause is the secret: give the receiver the one in ` +
      `${secretPath} ` +
      '(`sms-gateway webhook secret`, with the same SMS_GATEWAY_HOME as the gateway), and check that its clock is right'
    );
  }
  if (status === 404 || status === 405)
    return ": the receiver has no such route: check the target's path (`sms-gateway webhook list`)";
  if (status === null) return ': is the receiver running, and reachable from this phone?';
  return '';
}

const NO_TARGETS = 'no webhook targets: add one with `sms-gateway webhook add <url>` or set SMS_GATEWAY_WEBHOOK_URLS';

function describe(r: WebhookTestResult, secretPath: string): string {
  if (r.delivered) return `${r.url}: delivered (HTTP ${r.status})${r.switchedBackOn ? '; switched back on' : ''}`;
  return `${r.url}: FAILED (${r.error})${failureHint(r.status, secretPath)}`;
}

export async function webhookCommand(args: string[], ctx: CommandContext): Promise<number> {
  const [action, ...rest] = args;
  const arity: Record<string, (a: string[]) => boolean> = {
    secret: (a) => a.length === 0,
    rotate: (a) => a.length === 0,
    test: (a) => a.length === 0,
    list: (a) => a.length === 0 || (a.length === 1 && a[0] === '--json'),
    add: (a) => a.length === 1,
    remove: (a) => a.length === 1,
  };
  if (!action || !Object.hasOwn(arity, action) || !arity[action]!(rest)) return ctx.usage(webhookHelp);
  const config = loadConfig(ctx.env);
  // Never creates a home (cli/existing-home.ts): a secret or key there would sign for no gateway.
  requireHome(config.home, ctx.env);
  if (action === 'secret') {
    const secret = requireSecret(
      createWebhookSecretFile(config.home),
      config.home,
      ctx.env,
      'webhook signing secret',
      'sms-gateway webhook rotate',
    );
    ctx.stdout.write(`${secret.current()}\n`);
    return 0;
  }
  if (action === 'rotate') {
    ctx.stdout.write(`${createWebhookSecretFile(config.home).rotate()}\n`);
    return 0;
  }
  // The test waits for every target (up to 10 s each, in parallel).
  const client = createClient({
    baseUrl: LOOPBACK_URL,
    apiKey: existingApiKey(config.home, ctx.env).current(),
    maxRetries: 0,
    timeoutMs: 30_000,
  });
  try {
    if (action === 'add') {
      const t = await client.addWebhook(rest[0]!);
      ctx.stdout.write(
        t.disabled
          ? `${t.id}  ${t.url}\nThis target is registered already and switched off (it answered 410 Gone): fix the ` +
              `receiver, then \`sms-gateway webhook test\` switches it back on.\n`
          : `${t.id}  ${t.url}\nIt receives every event from now on; try it with \`sms-gateway webhook test\`.\n`,
      );
      return 0;
    }
    if (action === 'remove') {
      await client.removeWebhook(rest[0]!);
      ctx.stdout.write(`Removed ${rest[0]}; it receives no more events.\n`);
      return 0;
    }
    if (action === 'list') {
      const targets = await client.webhooks();
      if (rest[0] === '--json') ctx.stdout.write(`${JSON.stringify(targets, null, 2)}\n`);
      else if (targets.length === 0) ctx.stdout.write(`No ${NO_TARGETS.slice(3)}.\n`);
      else
        for (const t of targets)
          ctx.stdout.write(`${t.id}  ${t.source.padEnd(3)}  ${t.disabled ? 'off' : 'on '}  ${t.url}\n`);
      return 0;
    }
    const results = await client.testWebhooks();
    if (results.length === 0) {
      ctx.stderr.write(`sms-gateway: ${NO_TARGETS}\n`);
      return 1;
    }
    const secretPath = createWebhookSecretFile(config.home).path;
    for (const r of results) ctx.stdout.write(`${describe(r, secretPath)}\n`);
    return results.every((r) => r.delivered) ? 0 : 1;
  } catch (err) {
    if (!(err instanceof GatewayRequestError)) throw err;
    ctx.stderr.write(`sms-gateway: ${describeRequestError(err, createApiKeyFile(config.home).path)}\n`);
    return 1;
  }
}
