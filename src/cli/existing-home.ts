// The commands that read a gateway home never create one: only `start`, `key rotate`,
// `boot install` and `service install` do. A home that does not exist (a mistyped
// SMS_GATEWAY_HOME), or one without its API key yet, is one line saying what to do; the
// router prints it and exits 1. A key made here would belong to no running gateway.
import { existsSync } from 'node:fs';
import { createApiKeyFile, type SecretFile } from '../core/keys.js';

export class NoHomeError extends Error {
  override name = 'NoHomeError';
}

/** Throws NoHomeError when `home` does not exist. */
export function requireHome(home: string, env: NodeJS.ProcessEnv): void {
  if (existsSync(home)) return;
  const from = env.SMS_GATEWAY_HOME?.trim() ? ' (SMS_GATEWAY_HOME)' : '';
  throw new NoHomeError(
    `no gateway home at ${home}${from}; start the gateway once with \`sms-gateway start\` to create it`,
  );
}

/** The secret file of an existing home, or NoHomeError saying how to make it. */
export function requireSecret(
  file: SecretFile,
  home: string,
  env: NodeJS.ProcessEnv,
  what: string,
  make: string,
): SecretFile {
  requireHome(home, env);
  if (!existsSync(file.path)) {
    throw new NoHomeError(`no ${what} yet in ${home}: \`sms-gateway start\` creates one, or \`${make}\` makes one now`);
  }
  return file;
}

/** The API key of an existing home (never created here). */
export function existingApiKey(home: string, env: NodeJS.ProcessEnv): SecretFile {
  return requireSecret(createApiKeyFile(home), home, env, 'API key', 'sms-gateway key rotate');
}
