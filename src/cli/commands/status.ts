// sms-gateway status: a short human summary of the running gateway, from /health and
// /api/diagnostics over loopback: up or down, mode, URL, today's counts, the e-mail intake, and every check
// that is not ok with its hint. The exit code is for monitoring scripts (STATUS_EXIT).
import { loadConfig } from '../../core/config.js';
import { LOOPBACK_URL } from '../../core/runtime.js';
import { createClient, GatewayRequestError } from '../../client.js';
import { needsAttention } from '../../status/check.js';
import type { Diagnostics } from '../../status/diagnostics.js';
import type { HostInfo } from '../../status/host-info.js';
import type { CommandContext } from '../context.js';
import { existingApiKey } from '../existing-home.js';
import { keyRefusedHint } from '../hints.js';

export const statusHelp = `Usage: sms-gateway status [--json]

Asks the gateway running on this phone (${LOOPBACK_URL}) how it is doing:
up or down, mode, URL, today's counts, and every check that is not ok with what to do.
  --json   print the diagnostics JSON instead
Exit codes, for monitoring scripts:
  0  up, and ok or degraded (degraded: something needs attention, sending works)
  1  down: nothing answers on ${LOOPBACK_URL} (or another program does), or this home
     (SMS_GATEWAY_HOME) does not exist or has no API key yet: no gateway runs with it
  2  usage error, or the gateway refused this home's API key (another SMS_GATEWAY_HOME?)
  3  up, but failing (a check is failing, or its diagnostics could not be read)
`;

/** `sms-gateway status` exit codes; see statusHelp and docs/command-line.md. */
export const STATUS_EXIT = { ok: 0, down: 1, keyRefused: 2, failing: 3 } as const;

export function exitCodeFor(diag: Pick<Diagnostics, 'status'>): number {
  return diag.status === 'failing' ? STATUS_EXIT.failing : STATUS_EXIT.ok;
}

export function formatStatus(info: HostInfo, diag: Diagnostics): string {
  const g = info.gateway;
  const t = info.counters.today;
  const lines = [
    `sms-gateway ${g.version} is up (${g.mode} mode${g.smsEnabled ? '' : ', sending switched off'}), ` +
      `${diag.status.toUpperCase()}`,
    `  URL:    ${g.lanUrls.length > 0 ? g.lanUrls.join(', ') : `${LOOPBACK_URL} (no LAN address found)`}`,
    `  Uptime: ${formatDuration(g.uptimeSeconds)}`,
    `  Today:  ${t.sent} sent, ${t.failed} failed, ${t.queued} queued, ${t.billedSegments} segments billed ` +
      `(${info.counters.timeZone})`,
  ];
  const q = diag.checks.queue?.value as
    | { waiting?: number; paused?: boolean; nextAttemptAt?: string | null; oldestWaitingSince?: string | null }
    | undefined;
  if (q && typeof q.waiting === 'number') {
    const since = q.waiting > 0 && q.oldestWaitingSince ? `, the oldest since ${q.oldestWaitingSince}` : '';
    const paused = q.paused ? `; PAUSED after a hung hand-off, next try at ${q.nextAttemptAt}` : '';
    lines.push(`  Queue:  ${q.waiting} waiting${since}${paused}`);
  }
  const mail = diag.checks.smtp?.value;
  if (mail?.enabled) {
    const refused = Object.values(mail.refused ?? {}).reduce((sum, n) => sum + n, 0);
    const state = mail.listening ? 'listening' : 'NOT listening';
    lines.push(`  E-mail: SMTP port ${mail.port}, ${state}, ${mail.mailsAccepted} mails taken, ${refused} refused`);
  }
  const problems = needsAttention(diag.checks).map(
    (name) => [name, diag.checks[name as keyof Diagnostics['checks']]] as const,
  );
  if (problems.length === 0) lines.push('  Every check is ok.');
  else {
    lines.push('  Needs attention:');
    for (const [name, c] of problems)
      lines.push(`    ${c.status === 'failing' ? 'FAIL' : 'WARN'} ${name}: ${c.hint ?? 'see /api/diagnostics'}`);
  }
  return `${lines.join('\n')}\n`;
}

export function formatDuration(seconds: number): string {
  const d = Math.floor(seconds / 86_400);
  const h = Math.floor((seconds % 86_400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  return d > 0 ? `${d}d ${h}h` : h > 0 ? `${h}h ${m}m` : `${m}m ${seconds % 60}s`;
}

export async function statusCommand(args: string[], ctx: CommandContext): Promise<number> {
  const json = args.includes('--json');
  if (args.some((a) => a !== '--json')) return ctx.usage(statusHelp);
  const config = loadConfig(ctx.env);
  const keyFile = existingApiKey(config.home, ctx.env);
  const client = createClient({ baseUrl: LOOPBACK_URL, apiKey: keyFile.current(), maxRetries: 0, timeoutMs: 10_000 });
  try {
    await client.health();
  } catch (err) {
    // Something that answers, but not as the gateway does: another program holds port 8080.
    const other = err instanceof GatewayRequestError && err.status > 0;
    ctx.stdout.write(
      other
        ? `sms-gateway is DOWN: something else answers on ${LOOPBACK_URL} (HTTP ${err.status}); \`ss -ltnp 'sport = ` +
            `:8080'\` shows which program holds port 8080.\n`
        : `sms-gateway is DOWN: nothing answers on ${LOOPBACK_URL}. Start it with \`sms-gateway start\`.\n`,
    );
    return STATUS_EXIT.down;
  }
  try {
    const [info, diag] = await Promise.all([
      client.read<HostInfo>('/api/host/info'),
      client.read<Diagnostics>('/api/diagnostics'),
    ]);
    ctx.stdout.write(json ? `${JSON.stringify(diag, null, 2)}\n` : formatStatus(info, diag));
    return exitCodeFor(diag);
  } catch (err) {
    if (!(err instanceof GatewayRequestError)) throw err;
    if (err.status === 401) {
      ctx.stdout.write(`sms-gateway is up, but ${keyRefusedHint(keyFile.path)}\n`);
      return STATUS_EXIT.keyRefused;
    }
    ctx.stdout.write(`sms-gateway is up, but its diagnostics failed: ${err.message}\n`);
    return STATUS_EXIT.failing;
  }
}
