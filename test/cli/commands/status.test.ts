import t from 'tap';
import { createServer } from 'node:http';
import { holdPort8080 } from '../../helpers/gateway-process.js';
import { runCli } from '../../helpers/cli.js';
import { tempDir } from '../../helpers/paths.js';
import { exitCodeFor, STATUS_EXIT, statusHelp } from '../../../src/cli/commands/status.js';

t.test('exit codes a monitoring script can act on: 0 ok or degraded, 3 failing', async (t) => {
  t.equal(exitCodeFor({ status: 'ok' }), 0);
  t.equal(exitCodeFor({ status: 'degraded' }), 0);
  t.equal(exitCodeFor({ status: 'failing' }), 3);
  t.same(STATUS_EXIT, { ok: 0, down: 1, keyRefused: 2, failing: 3 });
});

t.test('the help lists every exit code', async (t) => {
  for (const code of [0, 1, 2, 3]) t.match(statusHelp, new RegExp(`^  ${code}  `, 'm'), `exit ${code}`);
});

t.test('another program on port 8080: DOWN, and how to find it', async (t) => {
  await holdPort8080(t);
  const server = createServer((_req, res) => res.writeHead(404).end('not here'));
  await new Promise<void>((resolve) => server.listen(8080, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const env = { SMS_GATEWAY_HOME: tempDir(t) };
  t.equal((await runCli(['key', 'rotate'], env)).code, 0, 'a home with a key (status never makes one)');
  const r = await runCli(['status'], env);
  t.equal(r.code, STATUS_EXIT.down);
  t.match(r.out, /something else answers on http:\/\/127\.0\.0\.1:8080 \(HTTP 404\); `ss -ltnp 'sport = :8080'`/);
});
