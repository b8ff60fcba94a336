// End to end: the real `sms-gateway start` process on port 8080, talked to over TCP.
// Holds the port-8080 lock for the whole file, so these never overlap other such tests.
import t from 'tap';
import { connect } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, ROOT, tempDir } from '../helpers/paths.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { acquireLock } from '../../src/core/lock.js';

const cli = (args: string[], env: NodeJS.ProcessEnv) =>
  spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8', timeout: 20_000 });

/** Sends raw bytes and returns the raw response (the server closes or answers). */
function rawRequest(text: string, caller: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: 8080, localAddress: caller }, () => socket.write(text));
    let data = '';
    socket.on('data', (d) => {
      data += d.toString();
      if (/\r\n\r\n[\s\S]*\}$/.test(data)) socket.end();
    });
    socket.on('end', () => resolve(data));
    socket.on('close', () => resolve(data));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error('raw request timed out')));
  });
}

t.test('the real process', async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const env = { ...process.env, SMS_GATEWAY_HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin' };
  const gw = await startGateway(t, env, '127.0.0.2');
  const key = cli(['key', 'show'], env).stdout.trim();

  await t.test('/health over TCP', async (t) => {
    const res = await httpGet('/health', {}, '127.0.0.2');
    t.equal(res.status, 200);
    t.same(JSON.parse(res.body), {
      status: 'ok',
      version: JSON.parse((await import('node:fs')).readFileSync(join(ROOT, 'package.json'), 'utf8')).version,
      smsEnabled: true,
      mode: 'simulated',
      simulation: 'success',
      testMode: true,
    });
  });

  await t.test('the built console: the page and its files from dist/console', async (t) => {
    // The bundle runs from dist/chunks/: the files are found from the package's root.
    for (const [url, file] of [
      ['/', 'index.html'],
      ['/console/app.js', 'app.js'],
      ['/console/app.css', 'app.css'],
    ] as const) {
      const res = await fetch(`http://127.0.0.1:8080${url}`);
      t.equal(res.status, 200, url);
      t.equal(
        await res.text(),
        (await import('node:fs')).readFileSync(join(ROOT, 'dist/console', file), 'utf8'),
        `${url}: the built ${file}`,
      );
    }
  });

  await t.test('two Authorization headers on the wire are 401, one is 200', async (t) => {
    const dup = await rawRequest(
      `GET /openapi.json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      '127.0.0.3',
    );
    t.match(dup, /^HTTP\/1\.1 401 /);
    t.match(dup, /\{"error":"Unauthorized"\}$/);
    const one = await rawRequest(
      `GET /openapi.json HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      '127.0.0.3',
    );
    t.match(one, /^HTTP\/1\.1 200 /);
  });

  await t.test('key rotate from another process: old key 401, new key 200 on the next requests', async (t) => {
    const auth = (k: string) => ({ authorization: `Bearer ${k}` });
    t.equal((await httpGet('/openapi.json', auth(key), '127.0.0.4')).status, 200);
    const rotated = cli(['key', 'rotate'], env);
    t.equal(rotated.status, 0);
    const fresh = rotated.stdout.trim();
    t.not(fresh, key);
    t.equal((await httpGet('/openapi.json', auth(key), '127.0.0.4')).status, 401);
    t.equal((await httpGet('/openapi.json', auth(fresh), '127.0.0.4')).status, 200);
  });

  await t.test('a second gateway on the same home is refused with one line', async (t) => {
    const second = cli(['start'], env);
    t.equal(second.status, 1);
    t.match(second.stderr, /^sms-gateway: another gateway \(pid \d+\) is already running on .*\n$/);
  });

  await t.test('port 8080 taken: one line naming the port, exit 1', async (t) => {
    const other = cli(['start'], { ...env, SMS_GATEWAY_HOME: tempDir(t) });
    t.equal(other.status, 1);
    t.equal(
      other.stderr,
      "sms-gateway: port 8080 is already in use: another gateway or program is listening on it (the port is fixed). See which with `ss -ltnp 'sport = :8080'` (or `lsof -i :8080`) and stop it\n",
    );
  });

  await t.test('without a terminal the log has the URL and the hint, never the key', async (t) => {
    // Request lines are written in batches, at most a second late (src/core/logging.ts).
    for (let i = 0; i < 30 && !gw.output().includes('"route":"/openapi.json","status":401'); i++) await sleep(100);
    const out = gw.output();
    t.match(
      out,
      /sms-gateway is listening\. SIMULATED mode \(no termux-sms-send on PATH\): nothing is really sent\. Run `sms-gateway key show` for the API key/,
    );
    t.match(out, /"mode":"simulated","modeReason":"no termux-sms-send on PATH"/);
    t.match(out, /http:\/\/[^"]+:8080/);
    t.notMatch(out, /sk_local_/);
    t.match(out, /"method":"GET","route":"\/openapi.json","status":401/);
    t.notMatch(out, /[Aa]uthorization/);
  });

  await t.test('SIGTERM stops cleanly with exit 0 and releases the lock', async (t) => {
    gw.proc.kill('SIGTERM');
    t.equal(await gw.exited, 0);
    t.equal(existsSync(join(home, 'gateway.pid')), false, 'the pid file is gone');
    const release = acquireLock(home); // the lock is free again
    release();
  });
});

t.test(
  'the start screen on a terminal: QR, then mode, URL and key; r rotates, q quits',
  { skip: !python3() && 'python3 is needed to drive a terminal' },
  async (t) => {
    await holdPort8080(t);
    const home = tempDir(t);
    const env = { ...process.env, SMS_GATEWAY_HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin', TERM: 'dumb' };
    const proc = spawn(
      'python3',
      [
        join(ROOT, 'test/fixtures/pty-drive.py'),
        JSON.stringify([
          ['q = quit', 'r'],
          ['q = quit', 'q'],
        ]),
        process.execPath,
        CLI,
        'start',
      ],
      { env },
    );
    let transcript = '';
    proc.stdout.on('data', (d: Buffer) => (transcript += d.toString()));
    const code = await new Promise<number | null>((res) => proc.on('exit', res));
    t.equal(code, 0, 'q stops the gateway with exit 0');
    const keys = [...transcript.matchAll(/API key: +(sk_local_[A-Za-z0-9]{32})/g)].map((m) => m[1]);
    t.equal(keys.length, 2, 'the screen was drawn, then redrawn after r');
    t.not(keys[0], keys[1], 'r made a new key');
    t.equal(keys[1], cli(['key', 'show'], env).stdout.trim(), 'the printed key equals `key show`');
    t.match(
      transcript,
      /^SIMULATED mode \(no termux-sms-send on PATH\): nothing is really sent\.\r?\nURL: +http:\/\/[0-9.]+:8080[^\r\n]*\r?\nAPI key: /m,
      'mode, URL and key together, last',
    );
    t.match(transcript, /█/, 'a QR code was drawn');
    // The first screen, from the QR code's first line to the key, fits the terminal (80x24, one row for the cursor).
    const lines = transcript.split(/\r?\n/);
    const first = lines.findIndex((l) => l.includes('█'));
    const keyLine = lines.findIndex((l) => l.startsWith('API key:'));
    t.ok(first >= 0 && keyLine > first + 15 && keyLine - first + 1 <= 23, `the screen is ${keyLine - first + 1} lines`);
    t.match(lines[keyLine - 2], /^SIMULATED mode \(/, 'the mode two lines above the key');
    t.same(
      lines.slice(first, keyLine + 1).filter((l) => [...l].length > 80),
      [],
      'no line wider than 80 columns',
    );
    t.match(transcript, /API key rotated from the start screen/);
  },
);

function python3(): boolean {
  return spawnSync('python3', ['--version']).status === 0;
}
