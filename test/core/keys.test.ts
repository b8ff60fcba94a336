import t from 'tap';
import { statSync, writeFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { API_KEY_PATTERN, createApiKeyFile, generateApiKey, KeyFileError, secretsEqual } from '../../src/core/keys.js';
import { tempDir } from '../helpers/paths.js';

t.test('generated keys have the documented format and differ', async (t) => {
  const keys = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const k = generateApiKey();
    t.match(k, API_KEY_PATTERN);
    keys.add(k);
  }
  t.equal(keys.size, 200);
});

t.test('the key file is created on first use, 0600 in a 0700 home, and stays put', async (t) => {
  const home = join(tempDir(t), 'nested', 'home');
  const file = createApiKeyFile(home);
  const key = file.current();
  t.match(key, API_KEY_PATTERN);
  t.equal(statSync(file.path).mode & 0o777, 0o600);
  t.equal(statSync(home).mode & 0o777, 0o700);
  t.equal(readFileSync(file.path, 'utf8'), `${key}\n`);
  t.equal(createApiKeyFile(home).current(), key, 'a second reader sees the same key');
});

t.test('rotation writes a new key atomically and other readers notice it', async (t) => {
  const home = tempDir(t);
  const server = createApiKeyFile(home);
  const cli = createApiKeyFile(home);
  const before = server.current();
  const after = cli.rotate();
  t.not(after, before);
  t.equal(server.current(), after);
  t.equal(statSync(server.path).mode & 0o777, 0o600);
  t.ok(server.createdAt() > 0);
});

t.test('a malformed key file stops with a message that says how to fix it', async (t) => {
  const home = tempDir(t);
  writeFileSync(join(home, 'api-key'), 'hello\n');
  t.throws(() => createApiKeyFile(home).current(), KeyFileError);
  t.throws(() => createApiKeyFile(home).current(), /sms-gateway key rotate/);
});

t.test('a key file deleted under a running reader is put back with the same key', async (t) => {
  const home = tempDir(t);
  const file = createApiKeyFile(home);
  const key = file.current();
  rmSync(file.path);
  t.equal(file.current(), key);
  t.equal(readFileSync(file.path, 'utf8').trim(), key);
});

t.test('secretsEqual compares exactly', async (t) => {
  t.equal(secretsEqual('abc', 'abc'), true);
  t.equal(secretsEqual('abc', 'abd'), false);
  t.equal(secretsEqual('abc', 'abcd'), false);
  t.equal(secretsEqual('', 'abc'), false);
});
