// The bench's webhook receiver, in the bench's own process: one server for the native target
// (any path but /smsgate/...: counts the sms.received events) and the SMSGate-dialect
// registrations (/smsgate/<event>: counts each envelope once by its id, so a retry of one
// event is not counted twice), so an idle phase can say how many events of each it got.
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

export interface WebhookReceiver {
  /** The native webhook target's URL. */
  url: string;
  /** The URL for an SMSGate registration of `event` (e.g. system:ping). */
  smsgateUrl(event: string): string;
  /** Native sms.received events received so far. */
  received(): number;
  /** SMSGate envelopes of `event` received so far (distinct envelope ids). */
  smsgate(event: string): number;
  close(): Promise<void>;
}

const PREFIX = '/smsgate/';

/** An envelope's event and id, or undefined when the body is not an SMSGate envelope. */
function envelope(body: string): { event: string; id: string } | undefined {
  try {
    const e = JSON.parse(body) as { event?: unknown; id?: unknown };
    return typeof e.event === 'string' && typeof e.id === 'string' ? { event: e.event, id: e.id } : undefined;
  } catch {
    return undefined;
  }
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  let received = 0;
  const smsgate = new Map<string, Set<string>>();
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const e = (req.url ?? '').startsWith(PREFIX) ? envelope(body) : undefined;
      if (e) {
        if (!smsgate.has(e.event)) smsgate.set(e.event, new Set());
        smsgate.get(e.event)!.add(e.id);
      } else if (body.includes('"sms.received"')) received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/hook`,
    smsgateUrl: (event) => `${base}${PREFIX}${event.replace(':', '-')}`,
    received: () => received,
    smsgate: (event) => smsgate.get(event)?.size ?? 0,
    close() {
      server.closeAllConnections();
      return new Promise<void>((res) => server.close(() => res()));
    },
  };
}

/** A TCP port free on 127.0.0.1 at this moment (for the e-mail intake). */
export function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = net.createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => res(port));
    });
  });
}

/** Whether something accepts a TCP connection on 127.0.0.1:port. */
export const accepts = (port: number) =>
  new Promise<boolean>((res) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      res(true);
    });
    socket.once('error', () => res(false));
  });
