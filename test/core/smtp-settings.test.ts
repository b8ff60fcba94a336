// SMS_GATEWAY_SMTP_* as loadConfig reads them: off when the port is unset, each bad value a
// ConfigError naming its variable, a certificate without its key refused.
import t from 'tap';
import { loadConfig, ConfigError } from '../../src/core/config.js';
import { tempDir } from '../helpers/paths.js';

t.test('the e-mail intake settings', async (t) => {
  const home = tempDir(t);
  const load = (env: Record<string, string>) => loadConfig({ SMS_GATEWAY_HOME: home, ...env });
  t.equal(load({}).smtp, undefined, 'off by default');
  t.same(load({ SMS_GATEWAY_SMTP_PORT: '2525' }).smtp, { port: 2525, tls: undefined, trusted: [], segments: 2 });
  const full = load({
    SMS_GATEWAY_SMTP_PORT: ' 2526 ',
    SMS_GATEWAY_SMTP_TLS_CERT: '/c.pem',
    SMS_GATEWAY_SMTP_TLS_KEY: '/k.pem',
    SMS_GATEWAY_SMTP_TRUSTED: '192.168.1.20, 10.0.0.0/8,fd00::/8',
    SMS_GATEWAY_SMTP_SEGMENTS: '4',
  }).smtp;
  t.same(full, {
    port: 2526,
    tls: { certPath: '/c.pem', keyPath: '/k.pem' },
    trusted: ['192.168.1.20', '10.0.0.0/8', 'fd00::/8'],
    segments: 4,
  });
  const refused: [Record<string, string>, RegExp][] = [
    [{ SMS_GATEWAY_SMTP_PORT: '25' }, /^invalid SMS_GATEWAY_SMTP_PORT="25": must be at least 1024/],
    [{ SMS_GATEWAY_SMTP_PORT: '8080' }, /SMS_GATEWAY_SMTP_PORT="8080": must not be 8080, the HTTP port/],
    [{ SMS_GATEWAY_SMTP_PORT: 'smtp' }, /SMS_GATEWAY_SMTP_PORT="smtp": must be a port number/],
    [{ SMS_GATEWAY_SMTP_PORT: '2525', SMS_GATEWAY_SMTP_TLS_CERT: '/c.pem' }, /go together: set both/],
    [{ SMS_GATEWAY_SMTP_TRUSTED: '192.168.1.0/33' }, /SMS_GATEWAY_SMTP_TRUSTED=.*"192.168.1.0\/33" is neither/],
    [{ SMS_GATEWAY_SMTP_SEGMENTS: '11' }, /SMS_GATEWAY_SMTP_SEGMENTS="11": must be at most 10/],
  ];
  for (const [env, message] of refused)
    t.throws(() => load(env), { name: ConfigError.name, message }, JSON.stringify(env));
});
