// The gateway's MQTT id (topics, Home Assistant's unique ids): SMS_GATEWAY_ID when set,
// otherwise `gw-` and 10 random characters made at the first start with MQTT and kept in
// $SMS_GATEWAY_HOME/gateway-id (0600, written atomically), so it survives restarts and
// Home Assistant keeps the same device. A damaged file is a StartupError, never replaced.
import { randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensurePrivateDir, writeFileAtomic } from './fs-util.js';
import { TOPIC_LEVEL } from './mqtt-settings.js';
import { StartupError } from './errors.js';

const ALPHABET = 'abcdefghijkmnpqrstuvwxyz23456789';
export const GATEWAY_ID_FILE = 'gateway-id';

export function resolveGatewayId(home: string, configured: string | undefined): string {
  if (configured !== undefined) return configured;
  const path = join(home, GATEWAY_ID_FILE);
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new StartupError(`cannot read ${path}: ${(err as Error).message}`);
  }
  if (text !== undefined) {
    const id = text.trim();
    if (!TOPIC_LEVEL.test(id)) {
      throw new StartupError(
        `${path} does not hold a gateway id (1 to 64 letters, digits, dashes or underscores): fix it, or remove it ` +
          `to make a new id (Home Assistant then sees a new device)`,
      );
    }
    return id;
  }
  let id = 'gw-';
  for (let i = 0; i < 10; i++) id += ALPHABET[randomInt(ALPHABET.length)];
  ensurePrivateDir(home);
  writeFileAtomic(path, `${id}\n`, 0o600);
  return id;
}
