import t from 'tap';
import type { NetworkInterfaceInfo } from 'node:os';
import { addressesFromInterfaces, baseUrl, lanAddresses, udpLocalAddress, wifiIpFromTermux } from '../../src/device/lan.js';
import { fakeTermux } from '../helper.js';

const v4 = (address: string, internal = false) => ({ address, family: 'IPv4', internal }) as NetworkInterfaceInfo;

t.test('interfaces: private non-internal IPv4 only, link-local last', async (t) => {
  const found = addressesFromInterfaces({
    lo: [v4('127.0.0.1', true)],
    dummy: [v4('169.254.3.4')],
    wlan0: [v4('192.168.1.23'), { address: 'fe80::1', family: 'IPv6', internal: false } as NetworkInterfaceInfo],
    rmnet: [v4('8.8.8.8')],
    tun: [v4('10.8.0.2')],
  });
  t.same(found, ['192.168.1.23', '10.8.0.2', '169.254.3.4']);
});

t.test('when os.networkInterfaces() throws (Android 13+), the Wi-Fi probe answers', async (t) => {
  const thrower = () => {
    throw new Error('A system error occurred: uv_interface_addresses returned Unknown system error 13');
  };
  t.same(await lanAddresses({ interfaces: thrower, wifiIp: async () => '192.168.0.50', udpProbe: async () => '10.0.0.9' }), ['192.168.0.50']);
  t.same(await lanAddresses({ interfaces: thrower, wifiIp: async () => '0.0.0.0', udpProbe: async () => '10.0.0.9' }), ['10.0.0.9']);
  t.same(await lanAddresses({ interfaces: thrower, wifiIp: async () => { throw new Error('x'); }, udpProbe: async () => undefined }), []);
  t.same(await lanAddresses({ interfaces: () => ({}), wifiIp: async () => undefined, udpProbe: async () => '8.8.8.8' }), [], 'a public address is no LAN URL');
});

t.test('termux-wifi-connectioninfo is read through the runner', async (t) => {
  const fake = fakeTermux(t, ['termux-wifi-connectioninfo']);
  fake.output('termux-wifi-connectioninfo', '{"ip": "192.168.1.77", "ssid": "home"}');
  const saved = process.env.PATH;
  process.env.PATH = fake.env.PATH;
  process.env.FAKE_TERMUX_DIR = fake.state;
  t.teardown(() => {
    process.env.PATH = saved;
  });
  t.equal(await wifiIpFromTermux(), '192.168.1.77');
  fake.mode('termux-wifi-connectioninfo', 'permission');
  t.equal(await wifiIpFromTermux(), undefined);
});

t.test('the UDP probe reports the local address without sending', async (t) => {
  t.equal(await udpLocalAddress('127.0.0.1', 9), '127.0.0.1');
});

t.test('base URLs', async (t) => {
  t.equal(baseUrl('192.168.1.2'), 'http://192.168.1.2:8080');
  t.equal(baseUrl('fd00::2'), 'http://[fd00::2]:8080');
});
