// createGateway from a real configuration, without listening: each setting of the
// configuration page (docs/configuration.md) reaches the running parts (mode, simulation, sms switch, default SIM,
// send timeout, .env in the home), and start-up errors are one clear StartupError.
import t, { type Test } from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/core/config.js';
import { createGateway, StartupError } from '../../src/server/run-gateway.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { tempDir } from '../helpers/paths.js';

const NO_TERMUX = { PATH: '/usr/local/bin:/usr/bin:/bin' };

async function gatewayWith(t: Test, env: NodeJS.ProcessEnv) {
  const gw = await createGateway({ config: loadConfig(env), env });
  t.teardown(() => gw.stop());
  const auth = { authorization: `Bearer ${gw.apiKey.current()}`, 'content-type': 'application/json' };
  const health = async () => (await gw.app.inject({ url: '/health', remoteAddress: '127.0.0.1' })).json();
  const send = (body: unknown) =>
    gw.app.inject({
      method: 'POST',
      url: '/api/sms/send',
      remoteAddress: '127.0.0.1',
      headers: auth,
      payload: JSON.stringify(body),
    });
  return { gw, health, send };
}

t.test('simulated by default without termux-sms-send; SMS_GATEWAY_SIMULATION=failure fails every send', async (t) => {
  const { health, send } = await gatewayWith(t, {
    ...NO_TERMUX,
    SMS_GATEWAY_HOME: tempDir(t),
    SMS_GATEWAY_SIMULATION: 'failure',
  });
  t.match(await health(), { mode: 'simulated', simulation: 'failure', testMode: true, smsEnabled: true });
  const res = await send({ to: '12345', message: 'x' });
  t.equal(res.statusCode, 502);
  t.match(res.json().error.message, /simulated_failure/);
});

t.test(
  'simulated mode without a phone offers SIM slots 1 and 2, as host info says and docs/sending.md promises',
  async (t) => {
    const { gw, send } = await gatewayWith(t, { ...NO_TERMUX, SMS_GATEWAY_HOME: tempDir(t) });
    const auth = { authorization: `Bearer ${gw.apiKey.current()}` };
    const info = (await gw.app.inject({ url: '/api/host/info', remoteAddress: '127.0.0.1', headers: auth })).json()
      .data;
    t.equal(info.simCount, 2);
    t.same(info.sims, [
      { slot: 1, carrier: null, state: null },
      { slot: 2, carrier: null, state: null },
    ]);
    t.equal((await send({ to: '12345', message: 'x', simSlot: 2 })).json().simSlot, 2, 'slot 2 is accepted');
    t.equal((await send({ to: '12345', message: 'x', simSlot: 3 })).statusCode, 400, 'slot 3 is not');
  },
);

t.test('SMS_GATEWAY_SMS_ENABLED=false: health says so and sends are 503', async (t) => {
  const { health, send } = await gatewayWith(t, {
    ...NO_TERMUX,
    SMS_GATEWAY_HOME: tempDir(t),
    SMS_GATEWAY_SMS_ENABLED: 'false',
  });
  t.equal((await health()).smsEnabled, false);
  t.equal((await send({ to: '12345', message: 'x' })).json().error.code, 'sms_disabled');
});

t.test('SMS_GATEWAY_DEFAULT_SIM from the .env in the home', async (t) => {
  const home = tempDir(t);
  writeFileSync(join(home, '.env'), 'SMS_GATEWAY_DEFAULT_SIM=2\n');
  const { send } = await gatewayWith(t, { ...NO_TERMUX, SMS_GATEWAY_HOME: home });
  t.equal((await send({ to: '12345', message: 'x' })).json().simSlot, 2);
});

t.test('termux-sms-send on PATH means real mode; SMS_GATEWAY_MODE=simulated overrides it', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  const real = await gatewayWith(t, { ...fake.env, SMS_GATEWAY_HOME: tempDir(t) });
  t.match(await real.health(), { mode: 'real', simulation: 'none', testMode: false });
  t.equal(real.gw.modeReason, 'termux-sms-send on PATH', 'the start screen says why');
  const forced = await gatewayWith(t, { ...fake.env, SMS_GATEWAY_HOME: tempDir(t), SMS_GATEWAY_MODE: 'simulated' });
  t.match(await forced.health(), { mode: 'simulated', simulation: 'success' });
  t.equal(forced.gw.modeReason, 'SMS_GATEWAY_MODE=simulated');
  const auto = await gatewayWith(t, { ...NO_TERMUX, SMS_GATEWAY_HOME: tempDir(t) });
  t.equal(auto.gw.modeReason, 'no termux-sms-send on PATH');
});

t.test('SMS_GATEWAY_SEND_TIMEOUT_SECONDS bounds a hanging hand-off: 502 with reason timeout', async (t) => {
  const fake = fakeTermux(t, ['termux-sms-send']);
  fake.mode('termux-sms-send', 'hang');
  const { gw, send } = await gatewayWith(t, {
    ...fake.env,
    SMS_GATEWAY_HOME: tempDir(t),
    SMS_GATEWAY_SEND_TIMEOUT_SECONDS: '1',
  });
  const res = await send({ to: '12345', message: 'x' });
  t.equal(res.statusCode, 502);
  t.match(res.json().error.message, /^Whether the SMS goes out is unknown \(timeout: no answer within 1000 ms\)/);
  t.equal(gw.parts.sending.messages.get(res.json().messageId)?.reason, 'timeout');
});

t.test('start-up errors are one StartupError each', async (t) => {
  await t.rejects(
    createGateway({
      config: loadConfig({ ...NO_TERMUX, SMS_GATEWAY_HOME: tempDir(t), SMS_GATEWAY_MODE: 'real' }),
      env: NO_TERMUX,
    }),
    StartupError,
  );
  const home = tempDir(t);
  const Database = (await import('better-sqlite3')).default;
  const db = new Database(join(home, 'gateway.db'));
  db.pragma('user_version = 99');
  db.close();
  await t.rejects(createGateway({ config: loadConfig({ ...NO_TERMUX, SMS_GATEWAY_HOME: home }), env: NO_TERMUX }), {
    name: 'StartupError',
    message: /^cannot open .*gateway\.db: the database schema is version 99, newer than this gateway knows/,
  });
});
