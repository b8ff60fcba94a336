// A gateway on a test broker for the opt-out sharing tests: opt-out keywords on, a fake inbox
// (receive() makes an SMS arrive and polls), MQTT started and connected, the share secret as
// given (`undefined`: none), and the proof a phone of the installation makes (docs/mqtt.md's form).
import { createHmac } from 'node:crypto';
import type { Test } from 'tap';
import pino from 'pino';
import { fakeInbox } from '../helpers/fake-inbox.js';
import type { FakeClock } from '../helpers/fake-clock.js';
import { testApp } from '../helpers/test-app.js';
import { gatewaySettings, waitFor } from './broker.js';

export const SECRET = 'kitchen-and-garage-share-this-secret';

/** The documented proof: hex HMAC-SHA256 of `sms-gateway/opt-out/v1|<number>|<optedOut>|<at>` under the secret. */
export const proofOf = (secret: string, number: string, optedOut: boolean, at: number) =>
  createHmac('sha256', secret).update(`sms-gateway/opt-out/v1|${number}|${optedOut}|${at}`).digest('hex');

export interface OptOutGatewayOptions {
  secret?: string | undefined;
  home?: string;
  clock?: FakeClock;
  /** Start MQTT and wait for the connection (default true). */
  connect?: boolean;
}

export async function optOutGateway(t: Test, url: string, id: string, opts: OptOutGatewayOptions = {}) {
  const inbox = fakeInbox();
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (s: string) => void lines.push(s) });
  const secret = 'secret' in opts ? opts.secret : SECRET;
  const app = await testApp(t, {
    inboxList: inbox.list,
    optOut: { enabled: true },
    logger,
    ...(opts.home ? { home: opts.home } : {}),
    ...(opts.clock ? { clock: opts.clock } : {}),
    mqtt: {
      settings: { ...gatewaySettings(url), gatewayId: id, shareSecret: secret },
      gatewayId: id,
      backoffMs: () => 100,
    },
  });
  const mqtt = app.gateway.mqtt!;
  mqtt.start();
  t.teardown(() => mqtt.stop());
  if (opts.connect !== false) await waitFor(() => mqtt.bridge.connected(), `${id} connected`);
  await app.gateway.inbox.watcher!.pollOnce(); // the baseline
  const receive = async (from: string, body: string) => {
    inbox.receive(from, body, app.clock.now());
    app.clock.advance(1000);
    await app.gateway.inbox.watcher!.pollOnce();
  };
  /** GET /api/opt-outs: its status and the numbers listed. */
  const listed = async () => {
    const res = await app.get('/api/opt-outs?limit=100');
    const numbers = res.statusCode === 200 ? (res.json().data as { number: string }[]).map((r) => r.number) : [];
    return { status: res.statusCode, numbers };
  };
  return { app, receive, listed, lines };
}
