// Supervised by runit, as termux-services does it: `sms-gateway service install` into a
// temp $PREFIX, the service run under Debian's runsv, the gateway killed with SIGKILL and
// seen serving again; its log lands in the svlogd directory.
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { holdPort8080 } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';
import { isAlive } from '../../scripts/port-lock.js';
import { runCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/paths.js';
import { waitFor } from '../helpers/wait.js';
import { servicePaths } from '../../src/cli/commands/service.js';

const runsv = spawnSync('sh', ['-c', 'command -v runsv'], { encoding: 'utf8' }).stdout.trim();

t.test(
  'runsv keeps the gateway serving after kill -9',
  { skip: runsv ? false : "runit (runsv) is not installed: .ci/run installs Debian's runit" },
  async (t) => {
    await holdPort8080(t);
    const prefix = tempDir(t);
    const home = tempDir(t);
    const env = { ...process.env, PREFIX: prefix, SMS_GATEWAY_HOME: home, PATH: `/usr/local/bin:/usr/bin:/bin` };
    const install = await runCli(['service', 'install'], env);
    t.equal(install.code, 0, install.err);
    const paths = servicePaths(prefix);

    const supervisor = spawn(runsv, [paths.dir], { env, stdio: 'ignore', detached: true });
    t.teardown(async () => {
      spawnSync('sv', ['exit', paths.dir], { env, timeout: 10_000 });
      try {
        process.kill(-supervisor.pid!, 'SIGKILL');
      } catch {
        // gone
      }
    });
    const pidOf = () => {
      try {
        const pid = Number(readFileSync(join(paths.dir, 'supervise', 'pid'), 'utf8'));
        return pid > 0 ? pid : undefined;
      } catch {
        return undefined;
      }
    };
    const healthy = async () => {
      try {
        return (await httpGet('/health', {}, '127.0.0.8')).status === 200 ? true : undefined;
      } catch {
        return undefined;
      }
    };

    await waitFor('the first /health', healthy);
    const first = await waitFor('the supervised pid', pidOf);
    process.kill(first, 'SIGKILL');
    const second = await waitFor('a new pid', () => {
      const p = pidOf();
      return p !== undefined && p !== first ? p : undefined;
    });
    t.not(second, first, 'runsv started a new gateway');
    t.equal(isAlive(first), false);
    await waitFor('/health after the restart', healthy);
    t.pass('serving again after kill -9');

    const log = join(paths.logDir, 'current');
    const text = await waitFor('log lines', () => {
      const s = existsSync(log) ? readFileSync(log, 'utf8') : '';
      return (s.match(/sms-gateway is listening/g) ?? []).length >= 2 ? s : undefined;
    });
    t.match(text, /^\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d\.\d+ \{/m, 'svlogd timestamps each line');
    t.notMatch(text, /sk_local_/, 'the key never reaches the log');
    t.equal(readFileSync(join(paths.logDir, 'config'), 'utf8'), 's1000000\nn5\n', 'rotation: 1 MB files, 5 kept');
  },
);
