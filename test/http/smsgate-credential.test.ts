// The SMSGate routes' credential (src/http/smsgate/credential.ts): Basic with any user name and the
// key as password, or Bearer with the key; exactly one Authorization header; a malformed one is none.
import t from 'tap';
import { basicPassword, hasBasicCredential, smsgateAuthorized } from '../../src/http/smsgate/credential.js';

const KEY = 'sk_local_abcdefghijklmnopqrstuvwxyz012345';
const b64 = (text: string) => Buffer.from(text).toString('base64');
const headers = (...values: string[]) => values.flatMap((v) => ['Authorization', v]);

t.test('Basic: any user name, the key as password (a colon in it kept)', async (t) => {
  t.equal(basicPassword(headers(`Basic ${b64(`sms:${KEY}`)}`)), KEY);
  t.equal(basicPassword(headers(`basic ${b64(`someone else:${KEY}`)}`)), KEY, 'scheme in any case');
  t.equal(basicPassword(headers(`Basic ${b64('u:a:b')}`)), 'a:b', 'the password is all after the first colon');
  t.equal(basicPassword(headers(`Basic ${b64(`:${KEY}`)}`)), KEY, 'an empty user name');
  t.equal(basicPassword(headers(`Basic ${b64(KEY)}`)), undefined, 'no colon: no credential');
  t.equal(basicPassword(headers('Basic !!!')), undefined, 'not base64');
  t.equal(basicPassword(headers(`Bearer ${KEY}`)), undefined, 'Bearer is not Basic');
});

t.test('authorized: Basic or Bearer with the current key, one header only', async (t) => {
  t.ok(smsgateAuthorized(headers(`Basic ${b64(`sms:${KEY}`)}`), KEY));
  t.ok(smsgateAuthorized(headers(`Bearer ${KEY}`), KEY));
  t.notOk(smsgateAuthorized(headers(`Basic ${b64('sms:wrong')}`), KEY));
  t.notOk(smsgateAuthorized(headers(`Basic ${b64(`sms:${KEY}x`)}`), KEY));
  t.notOk(smsgateAuthorized([], KEY), 'no header');
  t.notOk(smsgateAuthorized(headers(`Basic ${b64(`sms:${KEY}`)}`, `Bearer ${KEY}`), KEY), 'two headers');
  t.notOk(smsgateAuthorized(headers(`Digest ${KEY}`), KEY), 'another scheme');
});

t.test('a Basic credential at all (right or wrong) is told from none', async (t) => {
  t.ok(hasBasicCredential(headers(`Basic ${b64('sms:wrong')}`)));
  t.ok(hasBasicCredential(headers('Basic')), 'a bare scheme is a (wrong) Basic credential');
  t.notOk(hasBasicCredential(headers(`Bearer ${KEY}`)));
  t.notOk(hasBasicCredential([]));
});
