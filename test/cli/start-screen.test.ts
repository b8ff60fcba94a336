import t from 'tap';
import {
  modeLine,
  qrPayload,
  renderStartScreen,
  SCREEN_COLUMNS,
  SCREEN_ROWS,
  urlsFor,
  type ScreenMode,
} from '../../src/cli/start-screen.js';

const simulated: ScreenMode = { mode: 'simulated', reason: 'no termux-sms-send on PATH', smsEnabled: true };
const real: ScreenMode = { mode: 'real', reason: 'termux-sms-send on PATH', smsEnabled: true };
const KEY = `sk_local_${'Q'.repeat(32)}`;
const screen = (over: Partial<Parameters<typeof renderStartScreen>[0]> = {}) =>
  renderStartScreen({ addresses: ['192.168.1.5'], key: KEY, tty: true, mode: simulated, version: '0.2.0', ...over });
/** The text lines a terminal shows (the last newline leaves the cursor on a line of its own). */
const rows = (s: string) => s.replace(/\n$/, '').split('\n');

t.test('the QR payload is the JSON {url, key}', async (t) => {
  const text = qrPayload('http://192.168.1.5:8080', 'sk_local_abc');
  t.equal(text, '{"url":"http://192.168.1.5:8080","key":"sk_local_abc"}');
  t.same(JSON.parse(text), { url: 'http://192.168.1.5:8080', key: 'sk_local_abc' });
});

t.test('the mode says why, third line from the bottom', async (t) => {
  const s = await screen();
  t.equal(rows(s).at(-3), 'SIMULATED mode (no termux-sms-send on PATH): nothing is really sent.');
  t.equal(modeLine(real), "REAL mode (termux-sms-send on PATH): SMS go out through this phone's SIM.");
  t.equal(
    modeLine({ ...simulated, reason: 'SMS_GATEWAY_MODE=simulated' }),
    'SIMULATED mode (SMS_GATEWAY_MODE=simulated): nothing is really sent.',
  );
  t.match(await screen({ mode: { ...real, smsEnabled: false } }), /Sending is switched off/);
});

t.test(
  'the QR code with the other URLs beside it, then mode, URL and key last (request lines push the QR off first)',
  async (t) => {
    const s = await screen({ addresses: ['192.168.1.5', '10.0.0.7', '172.17.0.1'] });
    const lines = rows(s);
    t.match(lines[0], /^[█▀▄ ]{30,}/, 'the QR code starts on the first line');
    t.equal(lines.at(-2), 'URL:      http://192.168.1.5:8080');
    t.equal(lines.at(-1), `API key:  ${KEY}`);
    t.ok(lines.findLastIndex((l) => l.includes('█')) < lines.length - 3, 'nothing of the QR code after them');
    const also = s.indexOf('Also reachable at:');
    t.ok(
      also > s.indexOf('█') && s.indexOf('http://10.0.0.7:8080') > also && s.indexOf('http://172.17.0.1:8080') > also,
      'the others after the QR starts',
    );
    t.match(s, /r = new API key/);
    t.match(s, /q = quit/);
  },
);

t.test('fits 80x24 with the longest IPv4 URL and many addresses: mode, URL and key visible', async (t) => {
  const many = ['192.168.100.123', ...Array.from({ length: 30 }, (_, i) => `10.0.${i}.254`)];
  for (const addresses of [['192.168.100.123'], many, []]) {
    for (const tty of [true, false]) {
      for (const mode of [simulated, real, { ...real, smsEnabled: false }]) {
        const lines = rows(await screen({ addresses, tty, mode }));
        t.ok(
          lines.length <= SCREEN_ROWS - 1,
          `${lines.length} lines fit ${SCREEN_ROWS} rows with the cursor (${addresses.length} addresses)`,
        );
        const wide = lines.filter((l) => [...l].length > SCREEN_COLUMNS);
        t.same(wide, [], 'no line is wider than 80 columns');
        t.match(lines.at(-3), /mode \(/);
        t.match(lines.at(-2), /^URL: +http:\/\/[0-9.]+:8080/);
        t.equal(lines.at(-1), `API key:  ${KEY}`);
      }
    }
  }
  const s = await screen({ addresses: many });
  t.match(s, /and \d+ more/, 'addresses that do not fit are counted');
});

t.test('a narrow terminal gets the same lines under the QR code', async (t) => {
  const lines = rows(await screen({ addresses: ['192.168.1.5', '10.0.0.7'], columns: 60 }));
  t.same(
    lines.filter((l) => l.includes('█') && /[a-z]/.test(l)),
    [],
    'nothing beside the QR code',
  );
  t.ok(
    lines.indexOf('  http://10.0.0.7:8080') > lines.findLastIndex((l) => l.includes('█')),
    'the other URL below the QR code',
  );
  t.match(lines.at(-1), /^API key: /, 'the key still last');
});

t.test('without a LAN address the screen says so and offers loopback', async (t) => {
  const s = await screen({ addresses: [], tty: false, onPhone: true });
  t.match(s, /no LAN address: is Wi-Fi on\?/);
  t.match(s, /Only this phone can reach/);
  t.match(s, /http:\/\/127\.0\.0\.1:8080/);
  t.notMatch(s, /r = new API key/);
  t.same(urlsFor([]), ['http://127.0.0.1:8080']);
});

t.test('without a LAN address on a laptop or server, the screen speaks of this machine, not a phone', async (t) => {
  const s = await screen({ addresses: [], onPhone: false });
  t.match(s, /Only this machine can reach/);
  t.match(s, /no LAN address: is the network up\?/);
  t.notMatch(s, /phone|Wi-Fi/, 'no word of a phone or its Wi-Fi');
  // What `sms-gateway start` draws (it passes no onPhone): the platform decides, and this test runs off the phone.
  t.not(process.platform, 'android');
  const started = await screen({ addresses: [] });
  t.match(started, /Only this machine can reach/);
  t.notMatch(started, /phone/);
  for (const onPhone of [true, false]) {
    const lines = rows(await screen({ addresses: [], onPhone }));
    t.same(
      lines.filter((l) => [...l].length > SCREEN_COLUMNS),
      [],
      `no line wider than 80 columns (onPhone ${onPhone})`,
    );
  }
});
