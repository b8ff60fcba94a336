// sms-gateway doctor against fake phones: fake termux-* on PATH, a fake `pm` script, a
// temp SMS_GATEWAY_HOME. Tests that look at port 8080 hold the machine-wide port lock.
import t from 'tap';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { Test } from 'tap';
import type { Finding } from '../../../src/cli/doctor/report.js';
import { VERSION } from '../../../src/core/package-root.js';
import { fakeTermux } from '../../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../../helpers/gateway-process.js';
import { isAlive } from '../../../scripts/port-lock.js';
import { tempDir } from '../../helpers/paths.js';
import { runCli } from '../../helpers/cli.js';

const run = runCli;

/** A bin dir holding a fake `pm` (fake-termux cannot be pm: it must exit 1 for "not installed"). */
function fakePm(t: Test, body: string): string {
  const dir = tempDir(t, 'smsgw-pm-');
  const path = join(dir, 'pm');
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return dir;
}
const PM_INSTALLED = '[ "$*" = "path com.termux.api" ] || exit 2\necho package:/data/app/~~x/com.termux.api-1/base.apk';
const PM_MISSING = 'exit 1';

const TERMUX = ['termux-sms-send', 'termux-telephony-deviceinfo', 'termux-sms-list', 'getprop'];
const TELEPHONY = JSON.stringify({
  data_enabled: 'true',
  data_state: 'connected',
  phone_count: 2,
  phone_type: 'gsm',
  network_operator_name: 'Telekom.de',
  network_type: 'lte',
  network_roaming: false,
  sim_operator_name: 'Telekom.de',
  sim_state: 'ready',
});
const props = (sdk: number) =>
  `[ro.build.version.release]: [x]\n[ro.build.version.sdk]: [${sdk}]\n[ro.product.model]: [Pixel]\n`;

/** A healthy fake phone: every termux-* answers, Termux:API installed, given SDK. */
function healthyPhone(t: Test, sdk = 30) {
  const fake = fakeTermux(t, TERMUX);
  fake.output('termux-telephony-deviceinfo', TELEPHONY);
  fake.output(
    'termux-sms-list',
    '[{"threadid": 1, "type": "inbox", "read": true, "number": "+4915100000", "received": "2026-11-21 12:00:00", "body": "hi"}]',
  );
  fake.output('getprop', props(sdk));
  const home = join(tempDir(t), 'home');
  const env: NodeJS.ProcessEnv = {
    ...fake.env,
    PATH: `${fakePm(t, PM_INSTALLED)}:${fake.env.PATH}`,
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_DOCTOR_TIMEOUT_MS: '5000',
  };
  return { fake, home, env };
}

const lines = (out: string, tag: string) => out.split('\n').filter((l) => l.startsWith(tag));
/** The line after the one matching `re` (its fix: line). */
const fixOf = (out: string, re: RegExp) => {
  const all = out.split('\n');
  const i = all.findIndex((l) => re.test(l));
  return i < 0 ? undefined : all[i + 1];
};

const PHANTOM_12L = 'adb shell "settings put global settings_enable_monitor_phantom_procs false"';
const PHANTOM_12 =
  'adb shell "/system/bin/device_config set_sync_disabled_for_tests persistent; /system/bin/device_config put activity_manager max_phantom_processes 2147483647"';

t.test('usage', async (t) => {
  const bogus = await run(['doctor', '--bogus'], {});
  t.equal(bogus.code, 2);
  t.match(bogus.err, /^Usage: sms-gateway doctor\n/);
  t.equal(bogus.out, '');
  const help = await run(['doctor', '--help'], {});
  t.equal(help.code, 0);
  t.match(help.out, /^Usage: sms-gateway doctor\n/);
  t.match(help.out, /SMS_GATEWAY_DOCTOR_TIMEOUT_MS/);
  const listed = await run(['--help'], {});
  t.match(listed.out, /\n {2}doctor {5}preflight checks on the phone, each with its fix\n/);
  const badTimeout = await run(['doctor'], { PATH: tempDir(t), SMS_GATEWAY_DOCTOR_TIMEOUT_MS: 'soon' });
  t.equal(badTimeout.code, 2);
  t.match(badTimeout.err, /^sms-gateway: invalid SMS_GATEWAY_DOCTOR_TIMEOUT_MS="soon"/);
  t.equal(badTimeout.out, '', 'nothing checked');
});

t.test('an invalid configuration value is a FAIL line; the data directory is still checked', async (t) => {
  await holdPort8080(t); // doctor binds 8080 for a moment to check it is free
  const home = join(tempDir(t), 'home');
  const r = await run(['doctor'], { PATH: tempDir(t), SMS_GATEWAY_HOME: home, SMS_GATEWAY_DEFAULT_SIM: 'two' });
  t.equal(r.code, 1);
  t.match(
    r.out,
    /\n\[FAIL\] configuration: invalid SMS_GATEWAY_DEFAULT_SIM="two": .*\n {7}fix: correct the variable in the environment or in .*\.env\n/,
  );
  t.match(
    r.out,
    `\n[ ok ] data directory: ${home} does not exist yet; \`sms-gateway start\` creates it (${dirname(home)} is writable)\n`,
  );
  t.equal(existsSync(home), false, 'doctor creates no home');
});

t.test('checks that need port 8080 to themselves', async (t) => {
  await holdPort8080(t);

  await t.test('a healthy phone: every required check ok, exit 0', async (t) => {
    const { fake, home, env } = healthyPhone(t, 30);
    const r = await run(['doctor'], env);
    t.equal(r.code, 0, r.out);
    t.equal(r.err, '');
    const db = new Database(':memory:');
    const sqlite = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
    db.close();
    t.same(
      lines(r.out, '[ ok ]').map((l) => l.replace(/listened on (::|0\.0\.0\.0) /, 'listened on HOST ')),
      [
        `[ ok ] Node.js: ${process.version} (22 or newer needed)`,
        `[ ok ] better-sqlite3: loads and opens a database (SQLite ${sqlite})`,
        `[ ok ] termux-api package: termux-sms-send found at ${join(fake.bin, 'termux-sms-send')}`,
        '[ ok ] Termux:API app: installed (com.termux.api)',
        '[ ok ] Termux:API and SIM: Termux:API answers; carrier Telekom.de, SIM state ready, phone_count 2',
        '[ ok ] READ_SMS permission: granted (termux-sms-list answers)',
        '[ ok ] port 8080: free (listened on HOST and closed)',
        `[ ok ] data directory: ${home} does not exist yet; \`sms-gateway start\` creates it (${dirname(home)} is writable)`,
        '[ ok ] phantom process killer: Android SDK 30: no phantom process killer (before Android 12)',
      ],
    );
    t.same(lines(r.out, '[FAIL]'), []);
    t.same(lines(r.out, '[warn]'), []);
    t.same(
      lines(r.out, '[info]').map((l) => l.split(':')[0]),
      ['[info] SEND_SMS permission', '[info] wake lock and battery', '[info] Android SMS limit'],
    );
    t.equal(
      fixOf(r.out, /^\[info\] SEND_SMS permission/),
      '       fix: Settings > Apps > Termux:API > Permissions > SMS: Allow',
    );
    t.match(r.out, /\n {12}after `sms-gateway start`, try: sms-gateway send <your own number> test\n/);
    t.equal(
      fixOf(r.out, /^\[info\] wake lock/),
      '       fix: run termux-wake-lock before starting (the Termux:Boot script does it)',
    );
    t.equal(
      fixOf(r.out, /^\[info\] Android SMS limit/),
      '       fix: adb shell settings put global sms_outgoing_check_max_count 60',
    );
    t.match(r.out, /\nSummary: 9 ok, 0 FAIL, 0 warn, 3 info: ready for `sms-gateway start`\.\n$/);
    // Check order, as documented.
    t.same(
      r.out
        .split('\n')
        .filter((l) => /^\[/.test(l))
        .map((l) => l.slice(7).split(':')[0]),
      [
        'Node.js',
        'better-sqlite3',
        'termux-api package',
        'Termux',
        'Termux',
        'READ_SMS permission',
        'SEND_SMS permission',
        'port 8080',
        'data directory',
        'wake lock and battery',
        'phantom process killer',
        'Android SMS limit',
      ],
    );
    t.same(
      fake.calls('termux-sms-list').map((c) => c.argv),
      [['-l', '1']],
    );
    // (no argv check: fake-termux's `printf '%s\0' "$@"` records a call without arguments as one empty one)
    t.equal(fake.calls('termux-telephony-deviceinfo').length, 1, 'telephony asked once');
    t.same(fake.calls('termux-sms-send'), [], 'nothing is sent');
    t.equal(existsSync(home), false, 'doctor creates no home');
    t.same(readdirSync(dirname(home)), [], 'the probe file is removed');
    mkdirSync(home, { mode: 0o700 });
    const again = await run(['doctor'], env);
    t.match(again.out, `\n[ ok ] data directory: ${home} is writable\n`, 'an existing home is probed');
    t.same(readdirSync(home), [], 'the probe file is removed from it');
  });

  await t.test('a broken phone: FAIL lines with their fixes, exit 1, one short timeout', async (t) => {
    const fake = fakeTermux(t, TERMUX);
    fake.output(
      'termux-telephony-deviceinfo',
      '{"error": "Please grant the following permissions to use this command: android.permission.READ_PHONE_STATE"}\n',
    );
    fake.mode('termux-sms-list', 'hang');
    fake.mode('getprop', 'hang');
    const env = {
      ...fake.env,
      PATH: `${fakePm(t, PM_MISSING)}:${fake.env.PATH}`,
      SMS_GATEWAY_HOME: join(tempDir(t), 'home'),
      SMS_GATEWAY_DOCTOR_TIMEOUT_MS: '2000', // the healthy probes must answer within it on a loaded machine
    };
    const r = await run(['doctor'], env);
    t.equal(r.code, 1);
    t.same(lines(r.out, '[FAIL]'), [
      '[FAIL] Termux:API app: com.termux.api is not installed',
      '[FAIL] Termux:API and SIM: Termux:API is missing the READ_PHONE_STATE permission',
    ]);
    t.match(
      fixOf(r.out, /^\[FAIL\] Termux:API app/),
      /^ {7}fix: install Termux:API from F-Droid .*the same source as Termux, and open it once$/,
    );
    t.equal(
      fixOf(r.out, /^\[FAIL\] Termux:API and SIM/),
      '       fix: Settings > Apps > Termux:API > Permissions > Phone: Allow',
    );
    // Both hanging probes were cut off by the one short timeout (run in parallel).
    t.match(
      r.out,
      /\n\[warn\] READ_SMS permission: termux-sms-list does not answer \(no answer within 2000 ms\); only needed for sent-box confirmation and sms\.received events\n/,
    );
    t.equal(
      fixOf(r.out, /^\[warn\] READ_SMS/),
      '       fix: open the Termux:API app once; exempt Termux and Termux:API from battery optimisation',
    );
    t.match(r.out, /\n\[info\] phantom process killer: cannot tell the Android version/);
    t.equal(fixOf(r.out, /^\[info\] phantom/), `       fix: Android 12L/13+: ${PHANTOM_12L}`);
    t.match(r.out, `\n            Android 12 (SDK 31): ${PHANTOM_12}\n`);
    t.match(
      r.out,
      /\nSummary: \d+ ok, 2 FAIL, 1 warn, 4 info: fix the \[FAIL\] lines, then run `sms-gateway doctor` again\.\n$/,
    );
    for (const name of ['termux-sms-list', 'getprop']) {
      const [call] = fake.calls(name);
      t.ok(call?.grandchild, `${name} started its grandchild`);
      // SIGKILL is delivered, not awaited: on a loaded machine the process may take a moment to go.
      const grandchild = call!.grandchild!;
      for (let i = 0; i < 250 && isAlive(grandchild); i++) await sleep(20);
      t.notOk(isAlive(grandchild), `${name}'s hanging grandchild was killed`);
    }
  });

  await t.test('a SIM that is not ready fails; the phantom process killer is named for the SDK', async (t) => {
    const { fake, env } = healthyPhone(t, 31);
    fake.output('termux-telephony-deviceinfo', TELEPHONY.replace('"ready"', '"pin_required"'));
    fake.mode('termux-sms-list', 'permission');
    const r = await run(['doctor'], env);
    t.equal(r.code, 1);
    t.same(lines(r.out, '[FAIL]'), [
      '[FAIL] Termux:API and SIM: the SIM is not ready; carrier Telekom.de, SIM state pin_required, phone_count 2',
    ]);
    t.match(fixOf(r.out, /^\[FAIL\] Termux:API and SIM/), /^ {7}fix: insert the SIM card and unlock it/);
    t.match(r.out, /\n\[warn\] READ_SMS permission: not granted \(SEND_SMS\); only needed for/);
    t.equal(fixOf(r.out, /^\[warn\] READ_SMS/), '       fix: Settings > Apps > Termux:API > Permissions > SMS: Allow');
    t.match(r.out, /\n\[warn\] phantom process killer: Android SDK 31: /);
    t.equal(fixOf(r.out, /^\[warn\] phantom/), `       fix: ${PHANTOM_12}`);
  });

  await t.test('Android 14, Termux:API hangs: the cached-apps freezer is named with its fix', async (t) => {
    const { fake, env } = healthyPhone(t, 34);
    fake.output('getprop', '[ro.build.version.release]: [14]\n[ro.build.version.sdk]: [34]\n');
    fake.mode('termux-telephony-deviceinfo', 'hang');
    fake.mode('termux-sms-list', 'hang');
    const r = await run(['doctor'], { ...env, SMS_GATEWAY_DOCTOR_TIMEOUT_MS: '2000' });
    t.equal(r.code, 1);
    const freezer = [
      '       fix: open the Termux:API app once; exempt Termux and Termux:API from battery optimisation',
      '            Android 14: the likely cause is the cached-apps freezer (termux-api #638); turn it off from a computer:',
      '            adb shell settings put global cached_apps_freezer disabled',
    ].join('\n');
    t.match(r.out, `\n[FAIL] Termux:API and SIM: Termux:API does not answer (no answer within 2000 ms)\n${freezer}\n`);
    t.match(
      r.out,
      /\n\[warn\] READ_SMS permission: termux-sms-list does not answer \(no answer within 2000 ms\); [^\n]*\n/,
    );
    t.match(
      r.out,
      `; only needed for sent-box confirmation and sms.received events\n${freezer}\n`,
      'the hung READ_SMS probe names it too',
    );
    t.notMatch(r.out, /Allow restricted settings/, 'nothing was refused');
  });

  await t.test('Android 15, the SMS permission refused: restricted settings are named with the way out', async (t) => {
    const { fake, env } = healthyPhone(t, 35);
    fake.output('getprop', '[ro.build.version.release]: [15]\n[ro.build.version.sdk]: [35]\n');
    fake.output(
      'termux-sms-list',
      '{"error": "Please grant the following permissions to use this command: android.permission.READ_SMS"}\n',
    );
    const r = await run(['doctor'], env);
    t.equal(r.code, 0, 'READ_SMS is optional: a warning');
    t.match(
      r.out,
      [
        '\n[warn] READ_SMS permission: not granted (READ_SMS); only needed for sent-box confirmation and sms.received events',
        '       fix: Settings > Apps > Termux:API > Permissions > SMS: Allow',
        '            switch greyed out ("Restricted setting")? Android 13+ restricts apps installed from F-Droid or a file:',
        '            Settings > Apps > Termux:API > ⋮ (top right) > Allow restricted settings, then allow SMS again\n',
      ].join('\n'),
    );
    t.notMatch(r.out, /cached_apps_freezer/, 'nothing hung');
  });

  await t.test('no termux-* and no pm at all', async (t) => {
    const r = await run(['doctor'], {
      PATH: tempDir(t, 'smsgw-empty-'),
      SMS_GATEWAY_HOME: join(tempDir(t), 'home'),
      SMS_GATEWAY_DOCTOR_TIMEOUT_MS: '2000',
    });
    t.equal(r.code, 1);
    t.match(r.out, /\n\[FAIL\] termux-api package: termux-sms-send is not on PATH\n {7}fix: pkg install termux-api\n/);
    t.match(r.out, /\n\[FAIL\] Termux:API app: `pm` is not found: this does not look like Android\/Termux\n {7}fix: /);
    t.match(
      r.out,
      /\n\[FAIL\] Termux:API and SIM: termux-telephony-deviceinfo is not on PATH\n {7}fix: pkg install termux-api\n/,
    );
    t.match(r.out, /\nSummary: \d+ ok, 3 FAIL, /);
  });

  await t.test('port 8080 in use', async (t) => {
    await t.test('by another program: FAIL', async (t) => {
      const server = createServer((_req, res) => {
        res.statusCode = 404;
        res.end('not here');
      });
      await new Promise<void>((res) => server.listen(8080, res));
      try {
        const { env } = healthyPhone(t);
        const r = await run(['doctor'], env);
        t.equal(r.code, 1);
        t.same(lines(r.out, '[FAIL]'), [
          '[FAIL] port 8080: port 8080 is used by another program (it does not answer /health like a gateway)',
        ]);
        t.equal(
          fixOf(r.out, /^\[FAIL\] port 8080/),
          "       fix: stop the other program that listens on port 8080 (the gateway's port is fixed); `ss -ltnp 'sport = :8080'` shows which",
        );
      } finally {
        await new Promise((res) => server.close(res));
      }
    });

    await t.test('by a running gateway: ok; the key is never printed', async (t) => {
      const { env } = healthyPhone(t, 34);
      await startGateway(t, {
        ...process.env,
        SMS_GATEWAY_HOME: env.SMS_GATEWAY_HOME,
        PATH: '/usr/local/bin:/usr/bin:/bin',
      });
      const r = await run(['doctor'], env);
      t.equal(r.code, 0, r.out);
      t.match(r.out, `\n[ ok ] port 8080: a gateway is already running on port 8080 (version ${VERSION})\n`);
      const key = readFileSync(join(env.SMS_GATEWAY_HOME!, 'api-key'), 'utf8').trim();
      t.match(key, /^sk_local_/);
      t.notMatch(r.out, key);
      t.notMatch(r.out, /sk_local_/);
      t.match(r.out, /\n\[warn\] phantom process killer: Android SDK 34: /);
      t.equal(fixOf(r.out, /^\[warn\] phantom/), `       fix: ${PHANTOM_12L}`);
    });
  });
});

t.test('Node.js 22 or newer is needed (better-sqlite3 13)', async (t) => {
  const { nodeVersionOk } = await import('../../../src/cli/doctor/checks.js');
  t.equal(nodeVersionOk('v20.19.5'), false);
  t.equal(nodeVersionOk('v21.7.3'), false);
  t.equal(nodeVersionOk('v22.0.0'), true);
  t.equal(nodeVersionOk('v19.9.0'), false);
  t.equal(nodeVersionOk('v24.1.0'), true);
  t.equal(nodeVersionOk('v26.0.0'), true);
});

t.test(
  'the traps follow the Android version: the freezer from 11 (likely on 14+), restricted settings from 13',
  async (t) => {
    const { androidMajor, freezerFix, restrictedSettingsFix, FREEZER_OFF, ALLOW_RESTRICTED } =
      await import('../../../src/cli/doctor/traps.js');
    const { smsReadCheck, telephonyCheck } = await import('../../../src/cli/doctor/checks.js');
    const getprop = (stdout: string) => ({ ok: true as const, stdout, json: undefined, ms: 5 });
    t.equal(androidMajor(getprop('[ro.build.version.release]: [14]\n')), 14);
    t.equal(androidMajor(getprop('[ro.build.version.release]: [8.1.0]\n')), 8);
    t.equal(androidMajor(getprop('[ro.build.version.release]: [Baklava]\n')), null, 'a preview name is no number');
    t.equal(androidMajor(getprop('[ro.product.model]: [Pixel]\n')), null);
    t.equal(androidMajor({ ok: false, failure: 'timeout', detail: 'no answer within 10 ms', ms: 10 }), null);
    t.same(freezerFix(10), [], 'no freezer before Android 11');
    t.match(freezerFix(11), [/^Android 11: a possible cause is the cached-apps freezer/, FREEZER_OFF]);
    t.match(freezerFix(14), [/^Android 14: the likely cause is/, FREEZER_OFF]);
    t.match(freezerFix(null), [/^on Android 14 and newer the likely cause is/, FREEZER_OFF]);
    t.same(restrictedSettingsFix(12), [], 'no restricted settings before Android 13');
    t.equal(restrictedSettingsFix(13).at(-1), ALLOW_RESTRICTED);
    t.equal(restrictedSettingsFix(null).at(-1), ALLOW_RESTRICTED, 'unknown version: named, it may apply');
    const refused = {
      ok: false as const,
      failure: 'permission_denied' as const,
      detail: 'android.permission.READ_SMS',
      ms: 5,
    };
    const hung = { ok: false as const, failure: 'timeout' as const, detail: 'no answer within 10 ms', ms: 10 };
    const fixOfFinding = (f: Finding): string[] => (f.status === 'ok' ? [] : f.fix);
    t.notOk(fixOfFinding(smsReadCheck(refused, 12)).includes(ALLOW_RESTRICTED), 'Android 12: not named');
    t.ok(fixOfFinding(smsReadCheck(refused, 15)).includes(ALLOW_RESTRICTED), 'Android 15: named');
    t.notOk(fixOfFinding(telephonyCheck(hung, 10)).includes(FREEZER_OFF), 'Android 10: not named');
    t.ok(fixOfFinding(telephonyCheck(hung, 14)).includes(FREEZER_OFF), 'Android 14: named');
    t.ok(fixOfFinding(smsReadCheck(hung, 14)).includes(FREEZER_OFF), 'a hung sms-list too');
  },
);
