import t from 'tap';
import { readFileSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { resolveGatewayId } from '../../src/core/gateway-id.js';
import { tempDir } from '../helpers/paths.js';

t.test('SMS_GATEWAY_ID wins and writes nothing', async (t) => {
  const home = tempDir(t);
  t.equal(resolveGatewayId(home, 'kitchen'), 'kitchen');
  t.notOk(existsSync(join(home, 'gateway-id')));
});

t.test('made once (0600), the same ever after', async (t) => {
  const home = tempDir(t);
  const id = resolveGatewayId(home, undefined);
  t.match(id, /^gw-[a-z2-9]{10}$/);
  t.equal(statSync(join(home, 'gateway-id')).mode & 0o777, 0o600);
  t.equal(resolveGatewayId(home, undefined), id);
  t.not(resolveGatewayId(tempDir(t), undefined), id, 'another home, another id');
});

t.test('a damaged file stops the start instead of making a new device', async (t) => {
  const home = tempDir(t);
  writeFileSync(join(home, 'gateway-id'), 'has/slash\n');
  t.throws(() => resolveGatewayId(home, undefined), { name: 'StartupError', message: /does not hold a gateway id/ });
  t.equal(readFileSync(join(home, 'gateway-id'), 'utf8'), 'has/slash\n', 'left as it was');
});
