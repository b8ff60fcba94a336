// The start screen: the mode and why, the LAN URL, the API key, and a QR code whose text is
// {"url","key"} so a companion client is configured by one scan. It fits 80x24 (Termux's
// usual size): the QR code with the other URLs and the keys beside it, then mode, URL and
// key on the last three lines, so the request lines that follow push the QR code off the
// top first; narrower terminals get the side lines under the QR code.
// Only ever written to a terminal, never to a log; qrcode-terminal is loaded only then.
import { baseUrl } from '../device/lan.js';
import type { Mode } from '../core/runtime.js';

export interface QrPayload {
  url: string;
  key: string;
}

export interface ScreenMode {
  mode: Mode;
  /** Why this mode: "no termux-sms-send on PATH", "SMS_GATEWAY_MODE=simulated", ... */
  reason: string;
  smsEnabled: boolean;
}

export interface StartScreenOptions {
  addresses: string[];
  key: string;
  tty: boolean;
  mode: ScreenMode;
  version: string;
  /** The terminal's width; 80 when unknown (undefined or 0). */
  columns?: number | undefined;
  /** Running on the phone (Termux's Node says platform "android") or on another machine; the wording follows. */
  onPhone?: boolean;
  /** The e-mail intake's port and whether it offers STARTTLS (SMS_GATEWAY_SMTP_PORT); absent when off. */
  smtp?: { port: number; starttls: boolean } | undefined;
}

/** The terminal size the screen is made for: 80 columns, 24 rows (one kept for the cursor). */
export const SCREEN_COLUMNS = 80;
export const SCREEN_ROWS = 24;
const GAP = '  ';

/** The exact text the QR code encodes. */
export function qrPayload(url: string, key: string): string {
  return JSON.stringify({ url, key } satisfies QrPayload);
}

export async function renderQr(text: string): Promise<string> {
  const { default: qrcode } = await import('qrcode-terminal');
  return new Promise((resolve) => qrcode.generate(text, { small: true }, resolve));
}

export function urlsFor(addresses: string[]): string[] {
  return addresses.length > 0 ? addresses.map(baseUrl) : [baseUrl('127.0.0.1')];
}

/** One line saying the mode, why, and what it means; at most 80 columns. */
export function modeLine(m: ScreenMode): string {
  const what = m.mode === 'simulated' ? 'nothing is really sent' : "SMS go out through this phone's SIM";
  return `${m.mode.toUpperCase()} mode (${m.reason}): ${what}.`;
}

/** The e-mail intake in one line: `E-mail to SMS: SMTP port 2525 (plain)`. */
export function smtpLine(smtp: { port: number; starttls: boolean }): string {
  return `E-mail to SMS: SMTP port ${smtp.port} (${smtp.starttls ? 'STARTTLS' : 'plain'})`;
}

/** What the screen says without a LAN address: who can reach the loopback URL, and what to check. */
export function noLanWords(onPhone: boolean): { hint: string; reach: [string, string] } {
  const device = onPhone ? 'phone' : 'machine';
  return {
    hint: `(no LAN address: ${onPhone ? 'is Wi-Fi on?' : 'is the network up?'})`,
    reach: [`Only this ${device} can reach`, 'the URL below.'],
  };
}

export async function renderStartScreen(opts: StartScreenOptions): Promise<string> {
  const urls = urlsFor(opts.addresses);
  const noLan = opts.addresses.length === 0 ? noLanWords(opts.onPhone ?? process.platform === 'android') : undefined;
  const head = [modeLine(opts.mode), `URL:      ${urls[0]}${noLan ? `  ${noLan.hint}` : ''}`, `API key:  ${opts.key}`];
  const side = [`sms-gateway ${opts.version} is running.`];
  if (!opts.mode.smsEnabled) side.push('Sending is switched off', '(SMS_GATEWAY_SMS_ENABLED=false).');
  if (opts.smtp) side.push(smtpLine(opts.smtp));
  side.push('', 'Scan to configure a client:', 'the QR code holds URL and key.');
  if (noLan) side.push('', ...noLan.reach);
  const keys = opts.tty ? ['', 'r = new API key (old one stops working)', 'q = quit'] : [];

  const qr = (await renderQr(qrPayload(urls[0]!, opts.key))).replace(/\n+$/, '').split('\n');
  const others = urls.slice(1);
  if (others.length > 0) {
    const room = qr.length - side.length - keys.length - 2;
    const shown = others.length > room ? others.slice(0, Math.max(0, room - 1)) : others;
    side.push('', 'Also reachable at:', ...shown.map((u) => `  ${u}`));
    if (shown.length < others.length) side.push(`  and ${others.length - shown.length} more`);
  }
  side.push(...keys);

  const qrWidth = Math.max(...qr.map((l) => [...l].length));
  const widest = Math.max(...side.map((l) => l.length));
  const columns = opts.columns || SCREEN_COLUMNS; // a terminal of unknown size says 0
  let body: string[];
  if (qrWidth + GAP.length + widest <= columns && side.length <= qr.length) {
    body = qr.map((line, i) => {
      const text = side[i] ?? '';
      return text ? `${line.padEnd(qrWidth)}${GAP}${text}` : line;
    });
  } else {
    body = [...qr, ...side];
  }
  return `${[...body, ...head].join('\n')}\n`;
}
