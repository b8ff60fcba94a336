// The phone's LAN address(es) for the start screen and host info. os.networkInterfaces()
// throws on Android 13+, so: try it, then termux-wifi-connectioninfo's `ip`, then the
// local address of a connected UDP socket (connect() on UDP sends no packet). The real
// Wi-Fi/Ethernet interface comes first (it goes into the QR code); virtual bridges,
// container and VPN interfaces (docker0, br-*, veth*, virbr*, tun*, wg*, ...) come after
// every other, and link-local addresses last.
import { createSocket } from 'node:dgram';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { isLocalAddress } from '../core/addresses.js';
import { PORT } from '../core/runtime.js';
import { runCommand } from './termux.js';

export interface LanDeps {
  interfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
  wifiIp?: () => Promise<string | undefined>;
  udpProbe?: () => Promise<string | undefined>;
}

const usable = (ip: string | undefined): ip is string =>
  !!ip && ip !== '0.0.0.0' && !ip.startsWith('127.') && isLocalAddress(ip);

/** Wi-Fi, Ethernet and the phone's hotspot: what another machine on the LAN can reach. */
const REAL_INTERFACE = /^(wlan|wlp|wlx|wl|eth|enp|ens|eno|enx|en|ap|swlan|rndis|usb)\d*/i;
/** Bridges, containers, VMs and VPNs: reachable from this machine only, or through a tunnel. */
const VIRTUAL_NAMES = [
  'docker',
  'br-',
  'bridge',
  'veth',
  'virbr',
  'vboxnet',
  'vmnet',
  'vnet',
  'lxcbr',
  'lxdbr',
  'incusbr',
  'podman',
  'cni',
  'flannel',
  'cali',
  'kube',
  'weave',
  'tun',
  'tap',
  'wg',
  'utun',
  'tailscale',
  'zt',
  'ppp',
  'ipsec',
  'nordlynx',
  'dummy',
];
const VIRTUAL_INTERFACE = new RegExp(`^(${VIRTUAL_NAMES.join('|')})`, 'i');

/** 0: a real interface, 1: unknown name, 2: virtual (bridge, container, VPN), 3: link-local. */
export function interfaceRank(name: string, ip: string): number {
  if (ip.startsWith('169.254.')) return 3;
  if (VIRTUAL_INTERFACE.test(name)) return 2;
  return REAL_INTERFACE.test(name) ? 0 : 1;
}

export function addressesFromInterfaces(ifaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const found: { ip: string; rank: number }[] = [];
  for (const [name, list] of Object.entries(ifaces)) {
    for (const info of list ?? []) {
      if (
        info.family === 'IPv4' &&
        !info.internal &&
        usable(info.address) &&
        !found.some((f) => f.ip === info.address)
      ) {
        found.push({ ip: info.address, rank: interfaceRank(name, info.address) });
      }
    }
  }
  // Array.prototype.sort is stable: within a rank the system's order stays.
  return found.sort((a, b) => a.rank - b.rank).map((f) => f.ip);
}

export async function wifiIpFromTermux(): Promise<string | undefined> {
  const r = await runCommand('termux-wifi-connectioninfo', [], { timeoutMs: 3000, expect: 'json' });
  if (!r.ok) return undefined;
  const ip = (r.json as { ip?: unknown }).ip;
  return typeof ip === 'string' ? ip : undefined;
}

/** The source address the kernel would use towards `target`; no packet is sent. */
export function udpLocalAddress(target = '8.8.8.8', port = 53): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const done = (ip: string | undefined) => {
      socket.close();
      resolve(ip);
    };
    socket.once('error', () => done(undefined));
    socket.connect(port, target, () => {
      try {
        done(socket.address().address);
      } catch {
        done(undefined);
      }
    });
  });
}

export async function lanAddresses(deps: LanDeps = {}): Promise<string[]> {
  try {
    const found = addressesFromInterfaces((deps.interfaces ?? networkInterfaces)());
    if (found.length > 0) return found;
  } catch {
    // Android 13+: "Unknown system error 13"
  }
  const wifi = await (deps.wifiIp ?? wifiIpFromTermux)().catch(() => undefined);
  if (usable(wifi)) return [wifi];
  const udp = await (deps.udpProbe ?? udpLocalAddress)().catch(() => undefined);
  if (usable(udp)) return [udp];
  return [];
}

export function baseUrl(ip: string): string {
  return ip.includes(':') ? `http://[${ip}]:${PORT}` : `http://${ip}:${PORT}`;
}
