// Sockets against the real process: a host holding many connections cannot take the
// gateway away from others (per-caller cap, refusals close their connection), and a
// duplicated Authorization header is seen even after 2000 other headers.
import t from 'tap';
import { connect, type Socket } from 'node:net';
import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { MAX_CONNECTIONS_PER_ADDRESS } from '../../src/http/flood/limits.js';

/** Raw bytes in; the raw answer and whether the server closed the connection. */
function raw(text: string, caller: string): Promise<{ answer: string; closedByServer: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: 8080, localAddress: caller }, () => socket.write(text));
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => (answer += d));
    socket.on('end', () => resolve({ answer, closedByServer: true }));
    socket.on('error', reject);
    socket.setTimeout(8000, () => {
      socket.destroy();
      resolve({ answer, closedByServer: false });
    });
  });
}

function open(caller: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const s = connect({ host: '127.0.0.1', port: 8080, localAddress: caller }, () => resolve(s));
    s.on('error', reject);
  });
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

t.test('connections', async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const env = { ...process.env, SMS_GATEWAY_HOME: home, PATH: '/usr/local/bin:/usr/bin:/bin' };
  const gw = await startGateway(t, env, '127.0.0.60');
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], { env, encoding: 'utf8' }).stdout.trim();

  await t.test('a second Authorization header after 2000 others is still a 401', async (t) => {
    const filler = Array.from({ length: 2000 }, (_, i) => `X-F${i}: 1\r\n`).join('');
    const r = await raw(
      `GET /api/stats HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${filler}Authorization: Bearer ${key}\r\nConnection: close\r\n\r\n`,
      '127.0.0.61',
    );
    t.match(r.answer, /^HTTP\/1\.1 401 /);
    const one = await raw(
      `GET /api/stats HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\n${filler}Connection: close\r\n\r\n`,
      '127.0.0.61',
    );
    t.match(one.answer, /^HTTP\/1\.1 200 /, 'one key with the same 2000 headers is served');
  });

  await t.test('a refused request closes its keep-alive connection', async (t) => {
    const r = await raw(
      'GET /api/stats HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_local_wrong\r\nConnection: keep-alive\r\n\r\n',
      '127.0.0.62',
    );
    t.match(r.answer, /^HTTP\/1\.1 401 /);
    t.match(r.answer, /\r\n[Cc]onnection: close\r\n/);
    t.equal(r.closedByServer, true, 'the gateway closed it');
    const ok = await raw('GET /health HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n', '127.0.0.63');
    t.match(ok.answer, /^HTTP\/1\.1 200 /);
    t.equal(ok.closedByServer, true, 'an idle keep-alive connection is closed after 5 s');
  });

  await t.test(
    `one host holds at most ${MAX_CONNECTIONS_PER_ADDRESS} connections; others are still served`,
    async (t) => {
      const rssBefore = rssMb(gw.proc.pid!);
      const sockets: Socket[] = [];
      let closed = 0;
      for (let i = 0; i < 200; i++) {
        const s = await open('127.0.0.64');
        s.on('close', () => closed++);
        s.on('error', () => {});
        sockets.push(s);
      }
      for (let i = 0; i < 100 && closed < 200 - MAX_CONNECTIONS_PER_ADDRESS; i++) await sleep(50);
      await sleep(200); // and no more than those
      const held = sockets.filter((s) => !s.destroyed && s.readyState === 'open').length;
      t.equal(held, MAX_CONNECTIONS_PER_ADDRESS, `${held} of 200 held`);
      t.equal(closed, 200 - MAX_CONNECTIONS_PER_ADDRESS, 'the rest were closed at once');
      const res = await httpGet('/health', {}, '127.0.0.65');
      t.equal(res.status, 200, 'another caller is served meanwhile');
      t.comment(
        `flood of 200 sockets from one host: ${held} held, RSS ${rssBefore.toFixed(1)} -> ${rssMb(gw.proc.pid!).toFixed(1)} MB`,
      );
      for (const s of sockets) s.destroy();
    },
  );

  gw.proc.kill('SIGTERM');
  t.equal(await gw.exited, 0);
});
