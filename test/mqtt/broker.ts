// A real Mosquitto for the MQTT tests: started on a free 127.0.0.1 port with a temp config
// (anonymous, no persistence), stopped at teardown; a listening test client that records
// what it hears. No mock broker anywhere.
import type { MqttSettings } from '../../src/core/mqtt-settings.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, connect as tcpConnect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import mqtt, { type MqttClient } from 'mqtt';
import type { Test } from 'tap';
import { tempDir } from '../helpers/paths.js';

export const MOSQUITTO = '/usr/sbin/mosquitto';
export const noBroker = existsSync(MOSQUITTO) ? false : `${MOSQUITTO} is not installed (apt-get install mosquitto)`;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

const accepts = (port: number, host: string) =>
  new Promise<boolean>((resolve) => {
    const c = tcpConnect(port, host);
    c.once('connect', () => {
      c.destroy();
      resolve(true);
    });
    c.once('error', () => resolve(false));
  });

/** Polls `cond` (every 20 ms, up to `ms`); fails the wait with `what` when it never holds. */
export async function waitFor(cond: () => boolean | Promise<boolean>, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}

export interface Broker {
  port: number;
  url: string;
  /** Stops the broker (the port stays ours to start it again). */
  stop(): Promise<void>;
  /** Writes the ACL file again (read at the next start; only for a broker started with `acl`). */
  setAcl(acl: string): void;
  start(): Promise<void>;
}

export interface BrokerOptions {
  persist?: boolean;
  acl?: string;
}

/**
 * A broker on 127.0.0.1 (or on `hosts`, the first one in `url`) and a free port. With
 * `persist`, retained messages and sessions survive stop()/start() (saved on a clean stop).
 * With `acl`, the broker's acl_file holds it (anonymous clients get its lines without a user).
 */
export async function startBroker(t: Test, hosts = ['127.0.0.1'], opts: BrokerOptions = {}): Promise<Broker> {
  const dir = tempDir(t, 'smsgw-mosq-');
  const port = await freePort();
  const conf = join(dir, 'mosquitto.conf');
  const listeners = hosts.map((h) => `listener ${port} ${h}\n`).join('');
  // user root: started as root, mosquitto would switch to its own user and could not save here.
  const persistence = opts.persist
    ? `persistence true\npersistence_location ${dir}/\nuser root\n`
    : 'persistence false\n';
  let acl = '';
  if (opts.acl !== undefined) {
    writeFileSync(join(dir, 'acl'), opts.acl);
    // user root: mosquitto would switch to its own user and could not read the file here.
    acl = `acl_file ${join(dir, 'acl')}\n${opts.persist ? '' : 'user root\n'}`;
  }
  writeFileSync(conf, `${listeners}allow_anonymous true\n${persistence}${acl}log_dest none\n`);
  let proc: ChildProcess | undefined;
  const broker: Broker = {
    setAcl: (text) => writeFileSync(join(dir, 'acl'), text),
    port,
    url: `mqtt://${hosts[0]}:${port}`,
    async start() {
      const p = spawn(MOSQUITTO, ['-c', conf], { stdio: 'ignore' });
      proc = p;
      await waitFor(async () => p.exitCode !== null || (await accepts(port, hosts[0]!)), 'mosquitto to listen');
      if (p.exitCode !== null) throw new Error(`mosquitto exited (${p.exitCode})`);
    },
    async stop() {
      const p = proc;
      proc = undefined;
      if (!p || p.exitCode !== null) return;
      const gone = new Promise((r) => p.once('exit', r));
      p.kill(opts.persist ? 'SIGTERM' : 'SIGKILL'); // SIGTERM: mosquitto saves what it keeps
      await gone;
    },
  };
  await broker.start();
  t.teardown(() => broker.stop());
  return broker;
}

export interface Heard {
  topic: string;
  payload: string;
  retain: boolean;
  qos: number;
}

/** A test client subscribed to `filters`; `heard` grows as messages arrive. */
export async function listen(t: Test, url: string, filters: string[]): Promise<{ client: MqttClient; heard: Heard[] }> {
  const client = await mqtt.connectAsync(url, { protocolVersion: 5, reconnectPeriod: 0 });
  const heard: Heard[] = [];
  client.on('message', (topic, payload, packet) =>
    heard.push({ topic, payload: payload.toString(), retain: packet.retain, qos: packet.qos }),
  );
  await client.subscribeAsync(filters, { qos: 1 });
  t.teardown(() => client.endAsync(true));
  return { client, heard };
}

/** The MQTT settings of a test gateway on this broker: id gw1, one contact (Alice), no discovery. */
export const gatewaySettings = (url: string): MqttSettings => ({
  url,
  username: undefined,
  password: undefined,
  prefix: 'sms-gateway',
  gatewayId: 'gw1',
  contacts: [{ name: 'Alice', slug: 'alice', number: '+15551230001' }],
  discovery: false,
  shareSecret: undefined,
});
