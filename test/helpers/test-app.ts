// The gateway as a test gets it: composed on the real hooks from a test configuration, with
// a temp home and database, a fake clock, a recording sender and helpers for its API.
import { join } from 'node:path';
import type { Test } from 'tap';
import type { AppDeps } from '../../src/server/app.js';
import { createApiKeyFile } from '../../src/core/keys.js';
import type { RuntimeInfo } from '../../src/core/runtime.js';
import { openDatabase } from '../../src/store/database.js';
import { composeGateway, type Ports } from '../../src/server/compose.js';
import type { Config } from '../../src/core/config.js';
import type { Contact, MqttSettings } from '../../src/core/mqtt-settings.js';
import type { SmtpSettings } from '../../src/core/smtp-settings.js';
import { DEFAULT_OPT_IN_REPLY, DEFAULT_OPT_OUT_REPLY, type OptOutSettings } from '../../src/core/opt-out-settings.js';
import { createCalendar } from '../../src/core/time-zone.js';
import type { QuietHours } from '../../src/core/quiet-hours.js';
import type { HandoffRequest, HandoffResult } from '../../src/sms/handoff.js';
import type { Sender } from '../../src/sms/senders.js';
import { createProbes, type ProbeOptions } from '../../src/device/probes.js';
import { checkAnswersAgainstOpenApi } from '../fixtures/openapi-contract.js';
import { fakeClock, type FakeClock } from './fake-clock.js';
import { tempDir } from './paths.js';
import { VERSION } from '../../src/core/package-root.js';

export const testRuntime = (over: Partial<RuntimeInfo> = {}): RuntimeInfo => ({
  version: VERSION,
  mode: 'simulated',
  simulation: 'success',
  smsEnabled: true,
  startedAt: Date.UTC(2026, 10, 21, 12, 0, 0),
  ...over,
});

export interface TestAppOptions {
  runtime?: Partial<RuntimeInfo>;
  sender?: Sender;
  /** The SIM count port; 'probes': the real one, read from the probes (`probeRun` answers them). */
  simCount?: number | 'probes';
  defaultSim?: number;
  timeZone?: string;
  clock?: FakeClock;
  home?: string;
  logger?: AppDeps['logger'];
  /** Environment the device probes run in (fake termux-* on PATH); default: none found. */
  probeEnv?: NodeJS.ProcessEnv;
  probeTimeoutMs?: number;
  /** Runs the probes' commands instead of spawning them (a phone that answers when the test says). */
  probeRun?: ProbeOptions['run'];
  phoneNumber?: string;
  webhookUrls?: string[];
  webhookSecret?: string;
  webhookTimeoutMs?: number;
  random?: () => number;
  confirmSends?: boolean;
  deviceEnv?: NodeJS.ProcessEnv;
  queueRate?: number;
  quietHours?: QuietHours;
  /** Ends an interrupted hand-off's process group at restore (default: nothing is signalled). */
  endLeftover?: Ports['endLeftover'];
  /** SMS_GATEWAY_INBOX (the inbox watcher also runs with any webhook target). */
  inbox?: boolean;
  inboxList?: Ports['inboxList'];
  /** Builds the inbox watcher (with webhook targets or MQTT); tests poll it by hand. */
  inboxPollMs?: number;
  /** SMS_GATEWAY_REPLY_WINDOW_HOURS (default 24). */
  replyWindowHours?: number;
  /** The MQTT bridge (built, not started: call gateway.mqtt.start()). */
  mqtt?: MqttOptions;
  /** SMS_GATEWAY_OPT_OUT and the answers' texts (default: off, the default texts, no HELP answer). */
  optOut?: Partial<OptOutSettings>;
  /** SMS_GATEWAY_CONTACTS (default: none; with MQTT, the MQTT settings' contacts). */
  contacts?: Contact[];
  /** The e-mail intake (SMS_GATEWAY_SMTP_PORT; bind 127.0.0.1 on port 0): it listens once the app is ready. */
  smtp?: SmtpSettings;
}

export interface MqttOptions {
  settings: MqttSettings;
  gatewayId: string;
  /** A short reconnect delay, a state interval of their own. */
  backoffMs?: (attempt: number) => number;
  stateIntervalMs?: number;
}

/** A sender that records every hand-off and answers as told (ok by default). */
export function recordingSender(answer: () => HandoffResult | Promise<HandoffResult> = () => ({ ok: true })) {
  const handoffs: HandoffRequest[] = [];
  const sender: Sender = {
    async send(h) {
      handoffs.push(h);
      return answer();
    },
  };
  return { sender, handoffs };
}

/** The configuration a test's gateway is composed from (what loadConfig would give). */
function testConfig(home: string, runtime: RuntimeInfo, opts: TestAppOptions): Config {
  return {
    home,
    mode: runtime.mode,
    simulation: runtime.simulation === 'none' ? 'success' : runtime.simulation,
    smsEnabled: runtime.smsEnabled,
    defaultSim: opts.defaultSim ?? 1,
    phoneNumber: opts.phoneNumber,
    sendTimeoutMs: 30_000,
    webhookUrls: opts.webhookUrls ?? [],
    inbox: opts.inbox ?? false,
    inboxPollMs: opts.inboxPollMs ?? 30_000,
    replyWindowHours: opts.replyWindowHours ?? 24,
    queueRate: opts.queueRate ?? 30,
    quietHours: opts.quietHours,
    logLevel: 'silent',
    mqtt: opts.mqtt?.settings,
    optOut: {
      enabled: false,
      optOutReply: DEFAULT_OPT_OUT_REPLY,
      optInReply: DEFAULT_OPT_IN_REPLY,
      helpReply: '',
      ...opts.optOut,
    },
    contacts: opts.contacts ?? opts.mqtt?.settings.contacts ?? [],
    smtp: opts.smtp,
  };
}

/** The app on the real hooks, with a temp home and database, a fake clock and a fake sender. */
export async function testApp(t: Test, opts: TestAppOptions = {}) {
  const home = opts.home ?? tempDir(t);
  const keyFile = createApiKeyFile(home);
  const clock = opts.clock ?? fakeClock();
  const runtime = testRuntime(opts.runtime);
  const recorder = recordingSender();
  const db = openDatabase(join(home, 'gateway.db'));
  const calendar = createCalendar(opts.timeZone ?? 'UTC');
  const probes = createProbes({
    clock,
    env: opts.probeEnv ?? { PATH: '/nonexistent' },
    timeoutMs: opts.probeTimeoutMs ?? 1000,
    ...(opts.probeRun ? { run: opts.probeRun } : {}),
  });
  const config = testConfig(home, runtime, opts);
  const simCount = opts.simCount;
  const gateway = await composeGateway({
    config,
    db,
    clock,
    runtime,
    probes,
    apiKey: keyFile,
    logger: opts.logger,
    env: opts.deviceEnv ?? { PATH: '/nonexistent' },
    webhookSecret: () => opts.webhookSecret ?? 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    bootId: null,
    ports: {
      sender: opts.sender ?? recorder.sender,
      calendar: () => calendar,
      ...(simCount === 'probes' ? {} : { simCount: { known: () => simCount ?? 2, read: async () => simCount ?? 2 } }),
      interfaces: () => ({}),
      confirmSends: opts.confirmSends ?? false,
      inboxList: opts.inboxList,
      endLeftover: opts.endLeftover ?? (() => 'unknown'),
      ...(opts.mqtt ? { mqttGatewayId: () => opts.mqtt!.gatewayId } : {}),
      timings: {
        ...(opts.webhookTimeoutMs ? { webhookTimeoutMs: opts.webhookTimeoutMs } : {}),
        ...(opts.random ? { random: opts.random } : {}),
        ...(opts.mqtt?.backoffMs ? { mqttBackoffMs: opts.mqtt.backoffMs } : {}),
        ...(opts.mqtt?.stateIntervalMs ? { mqttStateIntervalMs: opts.mqtt.stateIntervalMs } : {}),
      },
    },
  });
  // What a start does before the first request (steps 1 to 3); the background work
  // (step 4) is left to the tests, which drive deliveries and confirmations by hand.
  gateway.restore();
  const { app } = gateway;
  checkAnswersAgainstOpenApi(app); // every answer a test gets must be one /openapi.json declares
  t.teardown(async () => {
    await gateway.mqtt?.stop();
    await app.close();
    // A test's hand-off that never answers holds nothing up: the 1 s grace passes at once.
    const stopping = gateway.stopBackground(1000);
    if ('tick' in clock) await (clock as FakeClock).tick(1000);
    await stopping;
    db.close();
  });
  const key = keyFile.current();
  const auth = { authorization: `Bearer ${key}` };
  /** POST /api/sms/send with the key from a local caller; advances the clock past the spacing first. */
  const send = (body: unknown, headers: Record<string, string> = {}, caller = '192.168.1.20') => {
    clock.advance(1000);
    return app.inject({
      method: 'POST',
      url: '/api/sms/send',
      remoteAddress: caller,
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  };
  const get = (url: string, caller = '192.168.1.21') => app.inject({ url, remoteAddress: caller, headers: auth });
  /** POST /api/messages (the queue) with the key from a local caller; the clock does not move. */
  const queue = (body: unknown, headers: Record<string, string> = {}, caller = '192.168.1.22') =>
    app.inject({
      method: 'POST',
      url: '/api/messages',
      remoteAddress: caller,
      headers: { ...auth, 'content-type': 'application/json', ...headers },
      payload: typeof body === 'string' ? body : JSON.stringify(body),
    });
  const cancel = (id: string, caller = '192.168.1.22') =>
    app.inject({ method: 'DELETE', url: `/api/messages/${id}`, remoteAddress: caller, headers: auth });
  return {
    app,
    gateway,
    home,
    keyFile,
    key,
    auth,
    clock,
    db,
    probes,
    handoffs: recorder.handoffs,
    send,
    get,
    queue,
    cancel,
  };
}
