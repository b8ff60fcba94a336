import t from 'tap';
import type { NetworkInterfaceInfo } from 'node:os';
import {
  addressesFromInterfaces,
  baseUrl,
  interfaceRank,
  lanAddresses,
  udpLocalAddress,
  wifiIpFromTermux,
} from '../../src/device/lan.js';
import { fakeTermux } from '../helpers/fake-termux.js';

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

t.test('a laptop with Docker, a VM bridge and a VPN: Wi-Fi/Ethernet first, virtual ones after', async (t) => {
  // The kernel lists docker0 and the bridges before wlan0 here, as it often does.
  const found = addressesFromInterfaces({
    lo: [v4('127.0.0.1', true)],
    docker0: [v4('172.17.0.1')],
    'br-3f2a9c1d0e4b': [v4('172.18.0.1')],
    virbr0: [v4('192.168.122.1')],
    veth12ab: [v4('169.254.9.9')],
    wg0: [v4('10.6.0.2')],
    tun0: [v4('10.8.0.2')],
    tailscale0: [v4('100.101.102.103')],
    enp3s0: [v4('192.168.1.40')],
    wlp2s0: [v4('192.168.1.41')],
  });
  t.same(
    found.slice(0, 2),
    ['192.168.1.40', '192.168.1.41'],
    'the real interfaces, in the system order, first (the QR takes the first)',
  );
  t.same(found.slice(2), [
    '172.17.0.1',
    '172.18.0.1',
    '192.168.122.1',
    '10.6.0.2',
    '10.8.0.2',
    '100.101.102.103',
    '169.254.9.9',
  ]);
  // Only virtual interfaces: they are still listed (nothing better exists).
  t.same(
    addressesFromInterfaces({ docker0: [v4('172.17.0.1')], something0: [v4('10.1.1.1')] }),
    ['10.1.1.1', '172.17.0.1'],
    'an unknown name before a known virtual one',
  );
  for (const name of ['wlan0', 'eth0', 'enp0s31f6', 'wlx001122334455', 'ap0', 'swlan0'])
    t.equal(interfaceRank(name, '192.168.1.2'), 0, name);
  for (const name of [
    'docker0',
    'br-abc',
    'veth9',
    'virbr0',
    'vboxnet0',
    'vmnet8',
    'tun0',
    'wg0',
    'utun3',
    'tailscale0',
    'zt0abc',
    'lxdbr0',
  ])
    t.equal(interfaceRank(name, '10.0.0.2'), 2, name);
  t.equal(interfaceRank('wlan0', '169.254.1.1'), 3, 'link-local last whatever the interface');
});

t.test('when os.networkInterfaces() throws (Android 13+), the Wi-Fi probe answers', async (t) => {
  const thrower = () => {
    throw new Error('A system error occurred: uv_interface_addresses returned Unknown system error 13');
  };
  t.same(
    await lanAddresses({ interfaces: thrower, wifiIp: async () => '192.168.0.50', udpProbe: async () => '10.0.0.9' }),
    ['192.168.0.50'],
  );
  t.same(await lanAddresses({ interfaces: thrower, wifiIp: async () => '0.0.0.0', udpProbe: async () => '10.0.0.9' }), [
    '10.0.0.9',
  ]);
  t.same(
    await lanAddresses({
      interfaces: thrower,
      wifiIp: async () => {
        throw new Error('x');
      },
      udpProbe: async () => undefined,
    }),
    [],
  );
  t.same(
    await lanAddresses({ interfaces: () => ({}), wifiIp: async () => undefined, udpProbe: async () => '8.8.8.8' }),
    [],
    'a public address is no LAN URL',
  );
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
