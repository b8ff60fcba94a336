// The idle hour's rig, shared by the bench's battery phase and its tests: a fake phone (the
// counting termux-* commands of test/fixtures/bin, each answering as a phone does, the
// inbox read from a file) and the gateway on it in real mode, composed by createGateway
// (what `sms-gateway start` runs) with the contract's settings (the inbox on, one webhook
// target, MQTT when a broker is given, the e-mail intake on a given port, SMSGate-dialect
// registrations of given events as POST /webhooks makes them, the other settings at their
// defaults) on simulated time (sim-clock.ts), with GET /metrics scraped every 15 s as
// Prometheus would.
import { existsSync, mkdirSync, readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { loadConfig } from '../../src/core/config.js';
import { PORT } from '../../src/core/runtime.js';
import { createGateway, type Gateway } from '../../src/server/run-gateway.js';
import { quiet, simClock, type SimClock } from './sim-clock.js';

/** The Termux:API commands the gateway calls; each call wakes the Termux:API app. */
export const TERMUX_API = [
  'termux-sms-list',
  'termux-battery-status',
  'termux-telephony-deviceinfo',
  'termux-wifi-connectioninfo',
  'termux-sms-send',
];
/** Android's own commands the probes run (no Termux:API app): counted apart. */
export const ANDROID = ['getprop', 'pm'];
/**
 * Prometheus's 15 s, 1 ms late: a fact read by one scrape is exactly its age limit old two
 * (or twenty) scrapes later, a tie that real timing breaks either way; the millisecond
 * breaks it to the dearer side (read again), as a scrape arriving a little late would.
 */
export const SCRAPE_EVERY_MS = 15_001;

const ANSWERS: Record<string, string> = {
  'termux-battery-status':
    '{"health": "GOOD", "percentage": 81, "plugged": "UNPLUGGED", "status": "DISCHARGING", "temperature": 27.4, "current": -210000}',
  'termux-telephony-deviceinfo':
    '{"data_enabled": "true", "data_state": "connected", "network_operator_name": "Carrier", "network_roaming": false, "network_type": "lte", "phone_count": 1, "sim_operator_name": "Carrier", "sim_state": "ready"}',
  'termux-wifi-connectioninfo':
    '{"bssid": "02:00:00:00:00:00", "ip": "192.168.1.40", "rssi": -58, "ssid": "home", "supplicant_state": "COMPLETED"}',
  getprop: '[ro.product.model]: [Pixel 7]\n[persist.sys.timezone]: [UTC]\n[ro.build.version.release]: [14]\n',
  pm: 'package:/data/app/com.termux.api/base.apk\n',
};

export interface FakePhone {
  bin: string;
  state: string;
  /** Calls so far, per command. */
  counts(): Record<string, number>;
  /** An SMS arrives in the phone's inbox, dated `atMs` (UTC: the gateway runs with TZ=UTC). */
  receive(from: string, body: string, atMs: number): void;
}

/** The fake phone in `dir`: every command counted, the inbox empty until receive(). */
export function fakePhone(dir: string, fakeTermux: string): FakePhone {
  const bin = join(dir, 'bin');
  const state = join(dir, 'state');
  mkdirSync(bin, { recursive: true });
  mkdirSync(state, { recursive: true });
  for (const name of [...TERMUX_API, ...ANDROID]) {
    symlinkSync(fakeTermux, join(bin, name));
    if (ANSWERS[name]) writeFileSync(join(state, `${name}.out`), `${ANSWERS[name]}\n`);
  }
  writeFileSync(join(state, 'termux-sms-list.mode'), 'inbox');
  writeFileSync(join(state, 'inbox'), '');
  const lines: string[] = [];
  const calls = (name: string) => {
    const calls = join(state, `${name}.calls`);
    return existsSync(calls) ? readdirSync(calls).filter((f) => f.endsWith('.argv')).length : 0;
  };
  return {
    bin,
    state,
    counts: () => Object.fromEntries([...TERMUX_API, ...ANDROID].map((name) => [name, calls(name)])),
    receive(from, body, atMs) {
      lines.push(`${from}\t${new Date(atMs).toISOString().slice(0, 19).replace('T', ' ')}\t${body}`);
      // A new file renamed over the old one: a read at the same moment sees one or the other.
      writeFileSync(join(state, 'inbox.new'), `${lines.join('\n')}\n`);
      renameSync(join(state, 'inbox.new'), join(state, 'inbox'));
    },
  };
}

export interface IdleGatewayOptions {
  home: string;
  phone: FakePhone;
  webhookUrl: string;
  mqttUrl?: string | undefined;
  /** The e-mail intake's port (SMS_GATEWAY_SMTP_PORT); undefined: off. */
  smtpPort?: number | undefined;
  /** SMSGate-dialect registrations made once started (POST /webhooks, Basic sms:<key>): event to URL. */
  smsgate?: Record<string, string> | undefined;
  /** SMS_GATEWAY_PING_MINUTES; undefined: the default (15). */
  pingMinutes?: number | undefined;
  /** Bind port 8080 and scrape over HTTP (the bench); otherwise scrape through app.inject. */
  listen: boolean;
  /** Child processes of this process that are not the gateway's (a broker), by command name. */
  ignoreChildren?: string[];
  /** Wall-clock start of simulated time. */
  startWallMs?: number;
}

export interface IdleGateway {
  gateway: Gateway;
  clock: SimClock;
  key: string;
  /** Scrapes of GET /metrics answered 200 so far. */
  scrapes(): number;
  stop(): Promise<void>;
}

/** GET /metrics over HTTP from 127.0.0.1, the status. */
function scrapeOverHttp(key: string): Promise<number> {
  return new Promise((res, rej) => {
    const req = http.request(
      { host: '127.0.0.1', port: PORT, path: '/metrics', headers: { authorization: `Bearer ${key}` }, agent: false },
      (r) => {
        r.resume();
        r.on('end', () => res(r.statusCode ?? 0));
      },
    );
    req.on('error', rej);
    req.end();
  });
}

/** One SMSGate-dialect registration, as an SMSGate client makes it; throws unless 201. */
async function registerSmsgate(gateway: Gateway, key: string, event: string, url: string): Promise<void> {
  const res = await gateway.app.inject({
    method: 'POST',
    url: '/webhooks',
    remoteAddress: '127.0.0.1',
    headers: {
      authorization: `Basic ${Buffer.from(`sms:${key}`).toString('base64')}`,
      'content-type': 'application/json',
    },
    payload: JSON.stringify({ id: `bench-${event.replace(':', '-')}`, url, event }),
  });
  if (res.statusCode !== 201) throw new Error(`POST /webhooks (${event}) answered ${res.statusCode}: ${res.body}`);
}

/** The gateway in real mode on the fake phone, started, on simulated time, scraped every 15 s. */
export async function idleGateway(opts: IdleGatewayOptions): Promise<IdleGateway> {
  const env: NodeJS.ProcessEnv = {
    PATH: `${opts.phone.bin}:/usr/bin:/bin`,
    FAKE_TERMUX_DIR: opts.phone.state,
    TZ: 'UTC',
    SMS_GATEWAY_HOME: opts.home,
    SMS_GATEWAY_INBOX: 'true',
    SMS_GATEWAY_WEBHOOK_URLS: opts.webhookUrl,
    ...(opts.mqttUrl ? { SMS_GATEWAY_MQTT_URL: opts.mqttUrl } : {}),
    ...(opts.smtpPort ? { SMS_GATEWAY_SMTP_PORT: String(opts.smtpPort) } : {}),
    ...(opts.pingMinutes ? { SMS_GATEWAY_PING_MINUTES: String(opts.pingMinutes) } : {}),
  };
  const inFlight = new Set<Promise<unknown>>();
  const failures: Error[] = [];
  const settle = async () => {
    await Promise.all([...inFlight]);
    if (failures.length > 0) throw failures[0]!;
    await quiet(opts.ignoreChildren ?? []);
  };
  const clock = simClock(opts.startWallMs ?? Date.now(), settle);
  const gateway = await createGateway({ config: loadConfig(env), env, clock });
  if (opts.listen) await gateway.listen();
  else await gateway.parts.start();
  const key = gateway.apiKey.current();
  for (const [event, url] of Object.entries(opts.smsgate ?? {})) await registerSmsgate(gateway, key, event, url);
  let scrapes = 0;
  let stopped = false;
  const scrapeOnce = async () => {
    const status = opts.listen
      ? await scrapeOverHttp(key)
      : (
          await gateway.app.inject({
            url: '/metrics',
            remoteAddress: '127.0.0.1',
            headers: { authorization: `Bearer ${key}` },
          })
        ).statusCode;
    if (status !== 200) throw new Error(`GET /metrics answered ${status}`);
    scrapes++;
  };
  const scrapeLoop = () => {
    if (stopped) return;
    const p = scrapeOnce().catch((err: Error) => void failures.push(err));
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
    clock.setTimer(scrapeLoop, SCRAPE_EVERY_MS);
  };
  clock.setTimer(scrapeLoop, SCRAPE_EVERY_MS);
  return {
    gateway,
    clock,
    key,
    scrapes: () => scrapes,
    async stop() {
      stopped = true;
      // A stop may wait on a timer (a grace): time moves while it does.
      let done = false;
      const stopping = gateway.stop().finally(() => (done = true));
      for (let i = 0; i < 120 && !done; i++) await clock.runFor(1000);
      await stopping;
    },
  };
}
