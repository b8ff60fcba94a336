// The phone's LAN address(es) for the start screen and host info. os.networkInterfaces()
// throws on Android 13+, so: try it, then termux-wifi-connectioninfo's `ip`, then the
// local address of a connected UDP socket (connect() on UDP sends no packet).
import { createSocket } from 'node:dgram';
import { networkInterfaces, type NetworkInterfaceInfo } from 'node:os';
import { isLocalAddress } from '../core/addresses.js';
import { PORT } from '../core/constants.js';
import { runCommand } from './termux.js';

export interface LanDeps {
  interfaces?: () => NodeJS.Dict<NetworkInterfaceInfo[]>;
  wifiIp?: () => Promise<string | undefined>;
  udpProbe?: () => Promise<string | undefined>;
}

const usable = (ip: string | undefined): ip is string =>
  !!ip && ip !== '0.0.0.0' && !ip.startsWith('127.') && isLocalAddress(ip);

/** Link-local addresses last: they are the least likely to be reachable. */
const rank = (ip: string) => (ip.startsWith('169.254.') ? 1 : 0);

export function addressesFromInterfaces(ifaces: NodeJS.Dict<NetworkInterfaceInfo[]>): string[] {
  const found: string[] = [];
  for (const list of Object.values(ifaces)) {
    for (const info of list ?? []) {
      if (info.family === 'IPv4' && !info.internal && usable(info.address) && !found.includes(info.address)) {
        found.push(info.address);
      }
    }
  }
  return found.sort((a, b) => rank(a) - rank(b));
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
