// sms-gateway webhook secret | rotate | test. The secret signs every event (Standard
// Webhooks); a rotation takes effect on the running gateway's next delivery. `test` sends
// a signed gateway.test event to every target and prints each answer; a target switched
// off by a 410 is switched back on when it answers 2xx here.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../core/config.js';
import { ensurePrivateDir } from '../../core/fs-util.js';
import { openDatabase } from '../../store/database.js';
import { createOutboxStore } from '../../events/outbox.js';
import { postSigned } from '../../events/delivery.js';
import { createWebhookSecretFile } from '../../events/signing.js';
import { makeEvent } from '../../events/events.js';
import { VERSION } from '../../core/version.js';
import type { CommandContext } from '../context.js';

export const webhookHelp = `Usage: sms-gateway webhook secret | rotate | test

  secret   print the signing secret (whsec_...), for your receiver
  rotate   replace the secret; the running gateway signs with the new one from its next delivery
  test     send a signed "gateway.test" event to every SMS_GATEWAY_WEBHOOK_URLS target
           and print each answer (exit 1 if any target did not answer 2xx)
`;

/** What a failed test answer most likely means, and what to do about it. */
export function failureHint(status: number | null, secretPath: string): string {
  if (status === 401 || status === 403) {
    return (
      `: the receiver refused the signature. The likely cause is the secret: give the receiver the one in ${secretPath} ` +
      '(`sms-gateway webhook secret`, with the same SMS_GATEWAY_HOME as the gateway), and check that its clock is right'
    );
  }
  if (status === 404 || status === 405) return ': the receiver has no such route: check the path in SMS_GATEWAY_WEBHOOK_URLS';
  if (status === null) return ': is the receiver running, and reachable from this phone?';
  return '';
}

export async function webhookCommand(args: string[], ctx: CommandContext): Promise<number> {
  const [action, ...rest] = args;
  if (rest.length > 0 || !['secret', 'rotate', 'test'].includes(action ?? '')) return ctx.usage(webhookHelp);
  const config = loadConfig(ctx.env);
  ensurePrivateDir(config.home);
  const secret = createWebhookSecretFile(config.home);
  if (action === 'secret') {
    ctx.stdout.write(`${secret.current()}\n`);
    return 0;
  }
  if (action === 'rotate') {
    ctx.stdout.write(`${secret.rotate()}\n`);
    return 0;
  }
  if (config.webhookUrls.length === 0) {
    ctx.stderr.write('sms-gateway: no webhook targets: set SMS_GATEWAY_WEBHOOK_URLS (see .env.example)\n');
    return 1;
  }
  const now = Date.now();
  const event = makeEvent('gateway.test', { message: 'This is a test event from sms-gateway.', version: VERSION }, now);
  const body = JSON.stringify(event);
  const results = await Promise.all(
    config.webhookUrls.map(async (url) => ({ url, r: await postSigned(url, event.id, body, secret.current(), now, `sms-gateway/${VERSION}`) })),
  );
  const dbPath = join(config.home, 'gateway.db');
  const db = existsSync(dbPath) ? openDatabase(dbPath) : undefined;
  try {
    const outbox = db && createOutboxStore(db);
    const disabled = new Set(outbox?.status().filter((t) => t.disabled).map((t) => t.url) ?? []);
    for (const { url, r } of results) {
      if (r.ok) {
        const revived = disabled.has(url);
        if (revived) outbox!.enable(url);
        ctx.stdout.write(`${url}: delivered (HTTP ${r.status})${revived ? '; switched back on' : ''}\n`);
      } else {
        ctx.stdout.write(`${url}: FAILED (${r.error})${failureHint(r.status, secret.path)}\n`);
      }
    }
  } finally {
    db?.close();
  }
  return results.every(({ r }) => r.ok) ? 0 : 1;
}
