// The opt-out list shared by two real gateways on one real Mosquitto (docs/receiving.md, "Opt-out
// (STOP)", last bullet), each in its own network namespace (port 8080 is fixed; each
// namespace has its own), joined to the root namespace by a veth pair; Mosquitto listens
// on the root ends, the test talks to each gateway on its namespace's address. Both run in
// simulated mode; phone1 has SMS_GATEWAY_OPT_OUT on and gets each STOP through
// `sms-gateway simulate receive` (run in its namespace). A STOP received by phone1 refuses
// the number on phone2's synchronous route (409 recipient_opted_out): when phone2 had never
// run at the time (no broker session: only the retained change can tell it), when both run,
// and when phone2 was stopped at the time and starts again. Both are given one
// SMS_GATEWAY_MQTT_SHARE_SECRET: a START received by phone1 and phone2's own API changes go
// the other way too; a forged far-future entry and an anonymous opt-in, retained on the broker,
// change nothing on either phone, and GET /api/opt-outs keeps answering 200.
// Needs root and iproute2; skipped with the reason otherwise.
import t from 'tap';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import mqtt from 'mqtt';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { listen, noBroker, startBroker, waitFor } from '../mqtt/broker.js';
import { joinNets, namespacesUnavailable, twoNets } from '../fixtures/ip.js';

const NETS = twoNets('sgo', 78);

function unavailable(): string | false {
  if (noBroker) return noBroker;
  const why = namespacesUnavailable(`smsgw-oo-probe-${process.pid}`);
  if (why) return `network namespaces unavailable: ${why}`;
  return false;
}

/** One HTTP request to a gateway at `host`:8080; the status and the parsed body. */
function call(
  host: string,
  key: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; json: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      ...(payload ? { 'content-type': 'application/json' } : {}),
    };
    const req = request({ host, port: 8080, method, path, headers, agent: false }, (res) => {
      let data = '';
      res.on('data', (d: Buffer) => (data += d.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, json: data ? (JSON.parse(data) as Record<string, unknown>) : {} }),
      );
    });
    req.on('error', reject);
    req.end(payload);
  });
}

t.test(
  'a STOP received by one gateway refuses the number on the other, also on one stopped at the time',
  { skip: unavailable() },
  async (t) => {
    joinNets(t, NETS);
    const broker = await startBroker(
      t,
      NETS.map((n) => n.rootIp),
    );
    const { heard } = await listen(t, broker.url, ['sms-gateway/+/availability', 'sms-gateway/opt-outs/+']);

    const phones = NETS.map((n, i) => {
      const id = `phone${i + 1}`;
      const env: NodeJS.ProcessEnv = {
        PATH: '/usr/bin:/bin', // no termux-sms-send: simulated mode
        SMS_GATEWAY_HOME: tempDir(t),
        SMS_GATEWAY_MQTT_URL: `mqtt://${n.rootIp}:${broker.port}`,
        SMS_GATEWAY_ID: id,
        SMS_GATEWAY_MQTT_SHARE_SECRET: 'both-phones-of-this-home-share-it',
        SMS_GATEWAY_OPT_OUT: i === 0 ? 'true' : 'false',
        SMS_GATEWAY_INBOX_POLL_SECONDS: '1',
        LOG_LEVEL: 'warn',
      };
      // `ip netns exec` runs node in the namespace (argv, no shell).
      const inNs = (...args: string[]) => ['netns', 'exec', n.ns, process.execPath, CLI, ...args];
      let proc: ChildProcess | undefined;
      return {
        id,
        host: n.nsIp,
        key: () => spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim(),
        cli: (...args: string[]) => spawnSync('ip', inNs(...args), { env, encoding: 'utf8' }),
        start() {
          proc = spawn('ip', inNs('start'), { env, stdio: 'ignore' });
        },
        async stop() {
          const p = proc;
          if (!p || p.exitCode !== null || p.signalCode !== null) return;
          const gone = new Promise((r) => p.once('exit', r));
          p.kill('SIGTERM');
          await gone;
        },
      };
    });
    t.teardown(async () => {
      for (const p of phones) await p.stop();
    });
    const [one, two] = phones as [(typeof phones)[number], (typeof phones)[number]];
    const availability = (id: string) =>
      heard.filter((h) => h.topic === `sms-gateway/${id}/availability`).at(-1)?.payload;
    const online = (id: string, times: number) =>
      waitFor(
        () =>
          heard.filter((h) => h.topic === `sms-gateway/${id}/availability` && h.payload === 'online').length >= times,
        `${id} online`,
        30_000,
      );
    let key: string | undefined;
    const key2 = () => (key ??= two.key()); // its home exists once it started
    const send = (to: string) => call(two.host, key2(), 'POST', '/api/sms/send', { to, message: 'hello' });
    // Asked every 250 ms at most: the per-caller rate limit (429) must not answer instead.
    const listedOnTwo = async (number: string) => {
      await sleep(250);
      const res = await call(two.host, key2(), 'GET', '/api/opt-outs');
      if (res.status !== 200) throw new Error(`GET /api/opt-outs answered ${res.status}: ${JSON.stringify(res.json)}`);
      return (res.json.data as { number: string }[]).some((r) => r.number === number);
    };
    const stop = (from: string, text = 'STOP') => {
      const r = one.cli('simulate', 'receive', '--from', from, text);
      t.equal(r.status, 0, `simulate receive ${text} from ${from}`);
    };
    const published = (number: string) =>
      waitFor(
        () => heard.some((h) => h.topic === `sms-gateway/opt-outs/${encodeURIComponent(number)}`),
        `phone1 publishes ${number}`,
        30_000,
      );

    // 1. phone2 has never run (no session on the broker): only the retained change can tell it.
    one.start();
    await online(one.id, 1);
    stop('+15550101');
    await published('+15550101');
    two.start();
    await online(two.id, 1);
    await waitFor(async () => await listedOnTwo('+15550101'), 'phone2 reads the retained change', 30_000);
    const first = await send('+15550101');
    t.equal(first.status, 409, 'refused by the gateway that was not running at the time');
    t.match(first.json, { error: { code: 'recipient_opted_out' } });

    // 2. Both running.
    t.equal((await send('+15550202')).status, 200, 'not listed yet');
    stop('+15550202', 'stop!');
    await waitFor(async () => await listedOnTwo('+15550202'), 'phone2 applies the STOP phone1 received', 30_000);
    const refused = await send('+15550202');
    t.equal(refused.status, 409);
    t.match(refused.json, { error: { code: 'recipient_opted_out' } });

    // 3. phone2 stopped while phone1 receives the next STOP; it learns it when it starts again.
    await two.stop();
    await waitFor(() => availability(two.id) === 'offline', 'phone2 offline');
    stop('+15550303');
    await published('+15550303');
    two.start();
    await online(two.id, 2);
    await waitFor(async () => await listedOnTwo('+15550303'), 'phone2 learns it after its restart', 30_000);
    t.equal((await send('+15550303')).status, 409, 'refused after the restart');
    t.equal((await send('+15550404')).status, 200, 'another number still goes out');

    // 4. The other way, and START: phone2 lists a number over its API, phone1 refuses it; phone1
    // receives START from a number, phone2 takes it off; phone2 takes its own one off, phone1 too.
    const key1 = one.key();
    const listedOn = async (host: string, key: string, number: string) => {
      await sleep(250);
      const res = await call(host, key, 'GET', '/api/opt-outs');
      if (res.status !== 200) throw new Error(`GET /api/opt-outs answered ${res.status}: ${JSON.stringify(res.json)}`);
      return (res.json.data as { number: string }[]).some((r) => r.number === number);
    };
    t.equal((await call(two.host, key2(), 'POST', '/api/opt-outs', { number: '+15550505' })).status, 201);
    await waitFor(() => listedOn(one.host, key1, '+15550505'), 'phone1 lists what phone2 listed', 30_000);
    stop('+15550202', 'START');
    await waitFor(async () => !(await listedOnTwo('+15550202')), 'phone2 takes off the START phone1 received', 30_000);
    t.equal((await send('+15550202')).status, 200, 'phone2 sends to it again');
    t.equal((await call(two.host, key2(), 'DELETE', '/api/opt-outs/%2B15550505')).status, 204);
    await waitFor(async () => !(await listedOn(one.host, key1, '+15550505')), 'phone1 takes it off too', 30_000);

    // 5. Anyone on the broker: a retained far-future entry and an anonymous opt-in change nothing.
    const anon = await mqtt.connectAsync(broker.url, { protocolVersion: 5 });
    t.teardown(() => anon.endAsync(true));
    const publish = (number: string, payload: object) =>
      anon.publishAsync(`sms-gateway/opt-outs/${encodeURIComponent(number)}`, JSON.stringify(payload), {
        qos: 1,
        retain: true,
      });
    await publish('+15550606', { optedOut: true, at: Number.MAX_SAFE_INTEGER });
    await publish('+15550606', { optedOut: true, at: Number.MAX_SAFE_INTEGER, by: 'api' });
    await publish('+15550303', { optedOut: false, at: Date.now() + 1000, by: 'api' });
    await publish('+15550707', { optedOut: true, at: Date.now(), by: 'api' }); // a marker: read after the others
    await waitFor(() => listedOnTwo('+15550707'), 'phone2 read the marker', 30_000);
    await waitFor(() => listedOn(one.host, key1, '+15550707'), 'phone1 read the marker', 30_000);
    for (const [host, key] of [
      [one.host, key1],
      [two.host, key2()],
    ] as const) {
      t.ok(await listedOn(host, key, '+15550303'), 'the anonymous opt-in took nothing off');
      t.notOk(await listedOn(host, key, '+15550606'), 'the far-future entry added nothing');
    }
    t.equal((await send('+15550303')).status, 409, 'and phone2 still refuses it');
  },
);
