import t from 'tap';
import { qrPayload, renderStartScreen, urlsFor } from '../../src/cli/start-screen.js';

t.test('the QR payload is the JSON {url, key}', async (t) => {
  const text = qrPayload('http://192.168.1.5:8080', 'sk_local_abc');
  t.equal(text, '{"url":"http://192.168.1.5:8080","key":"sk_local_abc"}');
  t.same(JSON.parse(text), { url: 'http://192.168.1.5:8080', key: 'sk_local_abc' });
});

t.test('the screen shows every URL, the key and a QR code, in that order', async (t) => {
  const screen = await renderStartScreen({ addresses: ['192.168.1.5', '10.0.0.7'], key: 'sk_local_KEY', tty: true });
  const url1 = screen.indexOf('http://192.168.1.5:8080');
  const url2 = screen.indexOf('http://10.0.0.7:8080');
  const key = screen.indexOf('sk_local_KEY');
  const qr = screen.indexOf('█');
  t.ok(url1 > 0 && url2 > url1 && key > url2 && qr > key, 'URLs, then key, then QR');
  t.match(screen, /r = new API key/);
});

t.test('without a LAN address the screen says so and offers loopback', async (t) => {
  const screen = await renderStartScreen({ addresses: [], key: 'sk_local_KEY', tty: false });
  t.match(screen, /No LAN address found/);
  t.match(screen, /http:\/\/127\.0\.0\.1:8080/);
  t.notMatch(screen, /r = new API key/);
  t.same(urlsFor([]), ['http://127.0.0.1:8080']);
});
