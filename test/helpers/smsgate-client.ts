// SMSGate's routes as a test calls them: Basic sms:<key>, JSON bodies, each request from a new
// local address (the per-caller limit allows about 10 requests a second from one).
import type { testApp } from './test-app.js';

type App = Awaited<ReturnType<typeof testApp>>;

export function smsgateClient(app: App) {
  let n = 0;
  const caller = () => `192.168.2.${(n++ % 250) + 1}`;
  const basic = `Basic ${Buffer.from(`sms:${app.key}`).toString('base64')}`;
  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown) =>
    app.app.inject({
      method,
      url,
      remoteAddress: caller(),
      headers: { authorization: basic, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  return {
    basic,
    post: (url: string, body: unknown) => call('POST', url, body),
    get: (url: string) => call('GET', url),
    delete: (url: string) => call('DELETE', url),
    /** The phone's SMSGate device id, as the gateway keeps it. */
    deviceId: () => app.gateway.sending.smsgate.deviceId(),
  };
}
