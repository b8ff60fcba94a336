// `sms-gateway send` and the exported client against the real gateway process.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { CLI, tempDir } from '../helpers/paths.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { createClient, GatewayRequestError } from '../../src/client.js';

function run(
  args: string[],
  env: NodeJS.ProcessEnv,
  input?: string,
): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, ...args], { env });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('exit', (code) => resolve({ code, out, err }));
    p.stdin.end(input ?? '');
  });
}

t.test('send command and client', async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const env = { ...process.env, SMS_GATEWAY_HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin' };
  t.equal((await run(['key', 'rotate'], env)).code, 0, 'the key the gateway will use (send never makes one)');

  const down = await run(['send', '12345', 'hi'], env);
  t.equal(down.code, 1, 'no gateway running');
  t.match(
    down.err,
    /^sms-gateway: not sent: cannot reach the gateway at http:\/\/127\.0\.0\.1:8080.*is `sms-gateway start` running\?/,
  );

  await startGateway(t, env);
  const ok = await run(['send', '+1 555 000 1111', 'Hello there'], env);
  t.equal(ok.code, 0, ok.err);
  t.match(ok.out, /^Handed to the phone: msg_[0-9a-z]{26} \(1 segment, gsm7, SIM 1, simulated\)\n$/);

  // Immediately again: the gateway answers 429 (1 s spacing); the client waits and retries.
  const spaced = await run(['send', '12345', '-', '--sim', '2', '--json'], env, 'from stdin\n');
  t.equal(spaced.code, 0, spaced.err);
  const r = JSON.parse(spaced.out);
  t.equal(r.simSlot, 2);

  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();
  const client = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: key });
  const page = await client.messages({ limit: 5 });
  t.equal(page.pagination.total, 2);
  t.equal(page.data[0]!.body, 'from stdin', 'stdin text without its final newline');
  t.equal((await client.message(r.messageId)).simSlot, 2);
  t.equal((await client.stats()).allTime.accepted, 2);
  t.equal((await client.health()).mode, 'simulated');

  const same = await client.send({ to: '12345', message: 'once' }, { idempotencyKey: 'cli-test' });
  const again = await client.send({ to: '12345', message: 'once' }, { idempotencyKey: 'cli-test' });
  t.equal(again.messageId, same.messageId, 'the same key is the same message');

  const bad = await run(['send', 'alice', 'x'], env);
  t.equal(bad.code, 1);
  t.match(bad.err, /^sms-gateway: not sent: Invalid request: body\.to must be a phone number/);

  // Another home (another key): the line says which key file and how to point at the right home.
  const otherHome = tempDir(t);
  t.equal((await run(['key', 'rotate'], { ...env, SMS_GATEWAY_HOME: otherHome })).code, 0);
  const elsewhere = await run(['send', '12345', 'x'], { ...env, SMS_GATEWAY_HOME: otherHome });
  t.equal(elsewhere.code, 1);
  t.equal(
    elsewhere.err,
    `sms-gateway: not sent: Unauthorized: the running gateway does not accept the API key in ${otherHome}/api-key, so it was started with another home. ` +
      'Run this command with SMS_GATEWAY_HOME set to that home (the default is ~/.sms-gateway)\n',
  );
  const otherStatus = await run(['status'], { ...env, SMS_GATEWAY_HOME: otherHome });
  t.equal(otherStatus.code, 2, 'status: 2 when the gateway refuses the key');
  t.match(
    otherStatus.out,
    new RegExp(`^sms-gateway is up, but the running gateway does not accept the API key in ${otherHome}/api-key`),
  );
  const upStatus = await run(['status'], env);
  t.equal(upStatus.code, 0, 'status: 0 when up and ok or degraded');
  t.match(upStatus.out, /is up \(simulated mode\), (OK|DEGRADED)/);

  const wrong = createClient({ baseUrl: 'http://127.0.0.1:8080', apiKey: 'sk_local_nope' });
  await t.rejects(wrong.stats(), new GatewayRequestError(401, 'unauthorized', 'Unauthorized'));

  t.equal((await run(['send', 'only-one-arg'], env)).code, 2);
  t.equal((await run(['send', '1', '2', '--sim', 'x'], env)).code, 2);
  t.equal((await run(['send', '1', '2', '--bogus'], env)).code, 2);
  t.equal((await run(['send', '1234', 'x', '--at', 'soonish'], env)).code, 2);

  // The queue: several recipients, --at, the queue listing and cancel, and the client.
  const many = await run(['send', '+15550100001', '+15550100002', 'Reminder'], env);
  t.equal(many.code, 0, many.err);
  t.match(
    many.out,
    /^Queued 2 messages; the gateway sends them at its pace:\n {2}msg_\w{26} {2}\+15550100001 {2}queued\n {2}msg_\w{26} {2}\+15550100002 {2}queued\n/,
  );
  const later = await run(['send', '+15550100003', 'Later', '--at', '2099-01-01T08:00:00Z', '--json'], env);
  t.equal(later.code, 1, 'more than 30 days ahead is refused');
  t.match(later.err, /not queued: .*more than 30 days ahead/);
  const at = new Date(Date.now() + 3600_000).toISOString();
  const sched = await run(['send', '+15550100003', 'Later', '--at', at, '--json'], env);
  t.equal(sched.code, 0, sched.err);
  const [rec] = JSON.parse(sched.out);
  t.match(rec, { to: '+15550100003', status: 'queued', sendAt: at });
  const list = await run(['queue'], env);
  t.equal(list.code, 0, list.err);
  t.match(list.out, new RegExp(`${rec.id}  \\+15550100003  not before ${at.replace(/[.]/g, '\\.')}`));
  const cancelled = await run(['queue', 'cancel', rec.id], env);
  t.equal(cancelled.code, 0, cancelled.err);
  t.match(cancelled.out, /^Cancelled msg_\w{26} \(to \+15550100003\); it will not be sent\.\n$/);
  const twice = await run(['queue', 'cancel', rec.id], env);
  t.equal(twice.code, 1);
  t.match(twice.err, /cannot be cancelled: it is already cancelled/);
  t.equal((await run(['queue', 'bogus'], env)).code, 2);
  const queued = await client.queue({
    to: ['+15550100004'],
    message: 'from the client',
    sendAt: new Date(Date.now() + 3600_000),
  });
  t.equal(queued.length, 1);
  t.equal((await client.cancel(queued[0]!.id)).status, 'cancelled');
});
