// sms-gateway key show | key rotate: print the API key alone on one line (scriptable).
// show reads an existing key only (cli/existing-home.ts); rotate may create the home.
// A rotation takes effect on a running gateway's very next request. A home that cannot be
// written (full, read-only) is one clear line and exit 1; a failed rotation keeps the old key.
import { loadConfig } from '../../core/config.js';
import { LOOPBACK_URL } from '../../core/runtime.js';
import { ensurePrivateDir } from '../../core/fs-util.js';
import { createApiKeyFile } from '../../core/keys.js';
import type { CommandContext } from '../context.js';
import { existingApiKey } from '../existing-home.js';

export const keyHelp = `Usage: sms-gateway key show | key rotate

  show     print the API key (\`sms-gateway start\` creates it; show never creates a home or a key)
  rotate   replace the API key (or make the first one, creating the home); clients using
           the old one get 401 from the next request on

The key is printed alone on one line, so it can be used in scripts:
  curl -H "Authorization: Bearer $(sms-gateway key show)" ${LOOPBACK_URL}/api/stats
`;

/** Why the home cannot be written, for the errors a full or read-only storage gives. */
const UNWRITABLE: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EIO: 'an I/O error',
};

export async function keyCommand(args: string[], ctx: CommandContext): Promise<number> {
  const [action, ...rest] = args;
  if (rest.length > 0 || (action !== 'show' && action !== 'rotate')) return ctx.usage(keyHelp);
  const config = loadConfig(ctx.env);
  let key: string;
  try {
    if (action === 'show') key = existingApiKey(config.home, ctx.env).current();
    else {
      ensurePrivateDir(config.home);
      key = createApiKeyFile(config.home).rotate();
    }
  } catch (err) {
    const why = UNWRITABLE[(err as NodeJS.ErrnoException).code ?? ''];
    if (why === undefined) throw err;
    const kept = action === 'rotate' ? ' The key was not rotated: the old one stays in use.' : '';
    ctx.stderr.write(
      `sms-gateway: cannot write the API key in ${config.home} (${why}).${kept} Free some space on the phone or ` +
        `make the home writable, then try again.\n`,
    );
    return 1;
  }
  ctx.stdout.write(`${key}\n`);
  return 0;
}
