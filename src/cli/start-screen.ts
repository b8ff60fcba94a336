// The start screen: LAN URL(s), the API key, and a QR code whose text is
// {"url","key"} so a companion client is configured by one scan. Only ever written to
// a terminal, never to a log.
import qrcode from 'qrcode-terminal';
import { baseUrl } from '../device/lan.js';

export interface QrPayload {
  url: string;
  key: string;
}

/** The exact text the QR code encodes. */
export function qrPayload(url: string, key: string): string {
  return JSON.stringify({ url, key } satisfies QrPayload);
}

export function renderQr(text: string): Promise<string> {
  return new Promise((resolve) => qrcode.generate(text, { small: true }, resolve));
}

export function urlsFor(addresses: string[]): string[] {
  return addresses.length > 0 ? addresses.map(baseUrl) : [baseUrl('127.0.0.1')];
}

export async function renderStartScreen(opts: { addresses: string[]; key: string; tty: boolean }): Promise<string> {
  const urls = urlsFor(opts.addresses);
  const lines = ['sms-gateway is running.', ''];
  if (opts.addresses.length === 0) {
    lines.push('No LAN address found (is Wi-Fi on?). Only this phone can reach:');
  } else {
    lines.push(urls.length > 1 ? 'LAN URLs:' : 'LAN URL:');
  }
  for (const url of urls) lines.push(`  ${url}`);
  lines.push('', 'API key:', `  ${opts.key}`, '', 'Scan to configure a client:');
  lines.push(await renderQr(qrPayload(urls[0]!, opts.key)));
  if (opts.tty) lines.push('Keys: r = new API key (old one stops working), q = quit', '');
  return lines.join('\n');
}
