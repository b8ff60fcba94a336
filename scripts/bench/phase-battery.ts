// Phase 7, the phone's battery (issue 37): the Termux:API calls of an idle hour with the
// contract's settings (real mode on counting fake termux-* commands, the inbox on, one
// webhook target, MQTT with Home Assistant discovery on a real Mosquitto, GET /metrics
// scraped every 15 s, the e-mail intake on, SMSGate-dialect registrations of system:ping and
// sms:received, whose pings of the hour are counted too), on simulated time (idle-rig.ts, sim-clock.ts): after a warm-up that
// takes the start's own reads, one whole hour is run and every call in it counted; no
// scaling. Then the reply latency in the fast window: a message is queued and handed off,
// a reply arrives about 2 minutes later (120 s plus 0 to 4.4 s, so the replies meet the 5 s
// reads at different phases), and the time until the sms.received event reaches the
// webhook target is taken (simulated time, in 100 ms steps; the median of the samples).
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fakePhone, idleGateway, TERMUX_API, type FakePhone, type IdleGateway } from './idle-rig.js';
import { log, median, round } from './measure.js';
import { newHome, startProc, stopProc, type Proc } from './processes.js';
import { FAKE_TERMUX } from './settings.js';
import { accepts, freePort, startWebhookReceiver, type WebhookReceiver } from './webhook-receiver.js';

export const MOSQUITTO = '/usr/sbin/mosquitto';
/** The contract's budget: Termux:API calls in an idle hour. */
export const CALLS_PER_IDLE_HOUR = 150;
/** The contract's bound on announcing a reply in the fast window, s. */
export const REPLY_WITHIN_S = 10;
/** SMSGate's ping interval when SMS_GATEWAY_PING_MINUTES is not set. */
export const DEFAULT_PING_MINUTES = 15;
/** The SMSGate-dialect registrations of the idle setting: the ping, and what Home Assistant registers. */
export const SMSGATE_EVENTS = ['system:ping', 'sms:received'];

export interface BatteryOptions {
  /** The measured idle window, simulated ms (an hour unless a short mode asks less; then scaled). */
  windowMs?: number;
  warmupMs?: number;
  replySamples?: number;
  /** Bind port 8080 (the bench) or answer through app.inject (a test without the port). */
  listen?: boolean;
  /** A broker's URL; undefined: the phase starts Mosquitto itself when it is installed. */
  mqttUrl?: string;
  /** SMS_GATEWAY_PING_MINUTES (a short window asks less to see pings); undefined: the default. */
  pingMinutes?: number;
}

/** Mosquitto on a free port, anonymous and without persistence; undefined when not installed. */
async function startMosquitto(): Promise<{ proc: Proc; url: string } | undefined> {
  if (!existsSync(MOSQUITTO)) return undefined;
  const port = 18830 + Math.floor(Math.random() * 1000);
  const dir = newHome('mosquitto');
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\nlog_dest none\n`);
  const proc = startProc('mosquitto', ['-c', conf], {}, port, MOSQUITTO);
  for (let i = 0; i < 250 && !(await accepts(port)); i++) await sleep(20);
  return { proc, url: `mqtt://127.0.0.1:${port}` };
}

const subtract = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, a[k]! - (b[k] ?? 0)]));
const apiTotal = (counts: Record<string, number>) => TERMUX_API.reduce((sum, name) => sum + (counts[name] ?? 0), 0);

/** One reply sample: queue a message, wait for its hand-off, a reply `afterMs` later; seconds until announced. */
async function replySample(
  rig: IdleGateway,
  phone: FakePhone,
  target: Pick<WebhookReceiver, 'received'>,
  i: number,
  afterMs: number,
): Promise<number> {
  const sends = phone.counts()['termux-sms-send']!;
  const res = await rig.gateway.app.inject({
    method: 'POST',
    url: '/api/messages',
    remoteAddress: '127.0.0.1',
    headers: { authorization: `Bearer ${rig.key}`, 'content-type': 'application/json' },
    payload: JSON.stringify({
      to: `+1555010${String(i).padStart(4, '0')}`,
      message: `Alarm ${i} in the garage. Reply 1 to disarm`,
    }),
  });
  if (res.statusCode !== 202) throw new Error(`POST /api/messages answered ${res.statusCode}: ${res.body}`);
  for (let n = 0; phone.counts()['termux-sms-send']! === sends; n++) {
    if (n > 600) throw new Error('the message was not handed off within 60 s');
    await rig.clock.runFor(100);
  }
  await rig.clock.runFor(afterMs);
  const announced = target.received();
  phone.receive(`+1555010${String(i).padStart(4, '0')}`, '1', rig.clock.now());
  const from = rig.clock.elapsedMs();
  for (let n = 0; target.received() === announced; n++) {
    if (n > 1200) throw new Error('the reply was not announced within 120 s');
    await rig.clock.runFor(100);
    await sleep(2); // the delivery's HTTP request, in real time, while the clock stands still
  }
  return round((rig.clock.elapsedMs() - from) / 1000, 1);
}

export async function batteryPhase(opts: BatteryOptions = {}) {
  const windowMs = opts.windowMs ?? 3_600_000;
  const warmupMs = opts.warmupMs ?? 300_000;
  const samples = opts.replySamples ?? 5;
  const pingMinutes = opts.pingMinutes ?? DEFAULT_PING_MINUTES;
  const target = await startWebhookReceiver();
  const broker = opts.mqttUrl ? undefined : await startMosquitto();
  const mqttUrl = opts.mqttUrl ?? broker?.url;
  const smtpPort = await freePort();
  const phone = fakePhone(newHome('battery-phone'), FAKE_TERMUX);
  log(
    `battery: an idle ${windowMs / 60_000} min (simulated) in real mode on fake termux-* commands, inbox, a webhook target, ${mqttUrl ? 'MQTT' : 'no MQTT (Mosquitto missing)'}, /metrics every 15 s, SMTP on port ${smtpPort}, SMSGate ${SMSGATE_EVENTS.join(' and ')} (a ping every ${pingMinutes} min) ...`,
  );
  const rig = await idleGateway({
    home: newHome('battery'),
    phone,
    webhookUrl: target.url,
    mqttUrl,
    smtpPort,
    smsgate: Object.fromEntries(SMSGATE_EVENTS.map((e) => [e, target.smsgateUrl(e)])),
    ...(opts.pingMinutes ? { pingMinutes: opts.pingMinutes } : {}),
    listen: opts.listen ?? true,
    ignoreChildren: ['mosquitto'],
  });
  const realStart = performance.now();
  try {
    await rig.clock.runFor(warmupMs);
    const atStart = phone.counts();
    const scrapesAtStart = rig.scrapes();
    const pingsAtStart = target.smsgate('system:ping');
    const firedAtStart = rig.clock.fired();
    await rig.clock.runFor(windowMs);
    const fired = rig.clock.fired() - firedAtStart;
    const calls = subtract(phone.counts(), atStart);
    const scrapes = rig.scrapes() - scrapesAtStart;
    const scale = 3_600_000 / windowMs;
    const perHour = Object.fromEntries(Object.entries(calls).map(([k, v]) => [k, round(v * scale, 1)]));
    await sleep(200); // the last ping's POST, in real time
    const pings = target.smsgate('system:ping') - pingsAtStart;
    const smtpListening = await accepts(smtpPort);
    log(`battery: reply latency, ${samples} replies about 2 minutes after a hand-off ...`);
    const replySeconds: number[] = [];
    for (let i = 0; i < samples; i++) replySeconds.push(await replySample(rig, phone, target, i, 120_000 + i * 1100));
    await sleep(200); // the last reply's SMSGate envelope, in real time
    return {
      windowMinutes: windowMs / 60_000,
      warmupMinutes: warmupMs / 60_000,
      scaled: scale !== 1,
      mqtt: mqttUrl !== undefined,
      smtp: { port: smtpPort, listening: smtpListening },
      smsgate: {
        events: SMSGATE_EVENTS,
        pingMinutes,
        pingsInWindow: pings,
        pingsExpected: Math.floor(windowMs / (pingMinutes * 60_000)),
        receivedEnvelopes: target.smsgate('sms:received'),
      },
      scrapes,
      /** The gateway's timers fired in the window, per hour (the rig's scrape timers left out). */
      timersPerHour: round((fired - scrapes) * scale, 1),
      callsPerHour: perHour,
      termuxApiPerHour: round(apiTotal(calls) * scale, 1),
      budget: CALLS_PER_IDLE_HOUR,
      warmupCalls: atStart,
      replySeconds,
      replyMedianS: median(replySeconds),
      replyWithinS: REPLY_WITHIN_S,
      realSeconds: round((performance.now() - realStart) / 1000, 1),
    };
  } finally {
    await rig.stop();
    await target.close();
    if (broker) await stopProc(broker.proc);
  }
}
