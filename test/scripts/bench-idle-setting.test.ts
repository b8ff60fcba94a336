// The bench's idle setting (scripts/bench/idle-setting.ts) on the built gateway as the idle
// phase starts it (`sms-gateway start`, simulated): the e-mail intake listens on the port the
// setting chose, the SMSGate-dialect system:ping registration is made over HTTP with Basic
// sms:<key> and listed by GET /webhooks, and the results name what was on.
import t from 'tap';
import { holdPort8080 } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/paths.js';
import { apiKey, newHome, run, startGateway, stopProc, waitForHealth } from '../../scripts/bench/processes.js';
import { describeSetting, idleSetting, registerPing, settingLine } from '../../scripts/bench/idle-setting.js';
import { GATEWAY_PORT } from '../../scripts/bench/settings.js';

t.test('the idle setting: SMTP on, system:ping registered, both named in the results', async (t) => {
  await holdPort8080(t);
  run.workDir = tempDir(t, 'smsgw-bench-');
  t.teardown(() => void (run.workDir = undefined));
  const home = newHome('idle-setting');
  const key = apiKey(home);
  const setting = await idleSetting();
  t.teardown(() => setting.receiver.close());
  const gw = startGateway(home, undefined, setting.env);
  t.teardown(() => stopProc(gw));
  await waitForHealth(gw);
  await registerPing(GATEWAY_PORT, key, setting);
  const basic = `Basic ${Buffer.from(`sms:${key}`).toString('base64')}`;
  const list = (await (
    await fetch(`http://127.0.0.1:${GATEWAY_PORT}/webhooks`, { headers: { authorization: basic } })
  ).json()) as { event: string; url: string }[];
  t.same(
    list.map((w) => [w.event, w.url]),
    [['system:ping', setting.receiver.smsgateUrl('system:ping')]],
    'GET /webhooks lists the ping registration',
  );
  const described = await describeSetting(setting);
  t.match(described, { smtpPort: setting.smtpPort, smtpListening: true, smsgate: ['system:ping'], pingMinutes: 15 });
  t.equal(described.pingsReceived, 0, 'no ping before its 15 minutes');
  t.match(settingLine(described), /e-mail intake on \(SMTP port \d+\) and an SMSGate-dialect system:ping registration/);
  await t.rejects(
    registerPing(GATEWAY_PORT, 'wrong-key', setting),
    /answered 401/,
    'a registration the gateway refuses stops the bench',
  );
});
