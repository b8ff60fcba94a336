import t from 'tap';
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
