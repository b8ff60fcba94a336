// Secrets kept in $SMS_GATEWAY_HOME: the API key (and, later, the webhook secret).
// Each is one file, 0600, written atomically. A running server notices a rotation made
// by another process on the very next request: current() re-reads the file whenever
// its identity (inode, size, mtime) changes, which costs one stat per call.
import { randomInt, timingSafeEqual, createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, writeFileAtomic } from './fs-util.js';

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const API_KEY_PATTERN = /^sk_local_[A-Za-z0-9]{32}$/;

export class KeyFileError extends Error {
  override name = 'KeyFileError';
}

export function generateApiKey(): string {
  let out = 'sk_local_';
  // randomInt draws from the CSPRNG without modulo bias.
  for (let i = 0; i < 32; i++) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export interface SecretFile {
  readonly path: string;
  /** The current secret, creating it on first use; re-read if another process rotated it. */
  current(): string;
  /** Replaces the secret with a fresh one and returns it. */
  rotate(): string;
  /** When the current secret was written (file mtime), ms since epoch. */
  createdAt(): number;
}

interface SecretFileOptions {
  home: string;
  name: string;
  generate: () => string;
  pattern: RegExp;
  rotateHint: string;
}

export function createSecretFile(opts: SecretFileOptions): SecretFile {
  const path = join(opts.home, opts.name);
  let cached: { id: string; value: string; mtimeMs: number } | undefined;

  const write = (value: string) => {
    ensurePrivateDir(opts.home);
    writeFileAtomic(path, `${value}\n`, 0o600);
  };

  const current = (): string => {
    let st;
    try {
      st = statSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      // A file removed under a running server: keep serving the key we know rather than
      // locking every client out; the next write puts it back.
      if (cached) {
        write(cached.value);
        return cached.value;
      }
      write(opts.generate());
      return current();
    }
    const id = `${st.ino}:${st.size}:${st.mtimeMs}`;
    if (cached?.id === id) return cached.value;
    const value = readFileSync(path, 'utf8').trim();
    if (!opts.pattern.test(value)) {
      throw new KeyFileError(`${path} does not hold a valid secret; replace it with: ${opts.rotateHint}`);
    }
    cached = { id, value, mtimeMs: st.mtimeMs };
    return value;
  };

  return {
    path,
    current,
    rotate() {
      write(opts.generate());
      return current();
    },
    createdAt() {
      current();
      return cached!.mtimeMs;
    },
  };
}

export function createApiKeyFile(home: string): SecretFile {
  return createSecretFile({
    home,
    name: 'api-key',
    generate: generateApiKey,
    pattern: API_KEY_PATTERN,
    rotateHint: 'sms-gateway key rotate',
  });
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();
/** The last expected secret's digest: it changes only when the key does (a rotation). */
let expectedDigest: { secret: string; digest: Buffer } | undefined;

/**
 * Constant-time comparison that does not leak the length either: both sides are compared
 * as sha256 digests. The expected side is hashed once per secret (a check per request
 * hashes only what the caller gave); the memo is keyed by the secret itself, so a
 * rotation is seen at once.
 */
export function secretsEqual(given: string, expected: string): boolean {
  if (expectedDigest?.secret !== expected) expectedDigest = { secret: expected, digest: sha256(expected) };
  return timingSafeEqual(sha256(given), expectedDigest.digest);
}
