// sms-gateway key show | key rotate: print the API key alone on one line (scriptable).
// A rotation takes effect on a running gateway's very next request.
import { loadConfig } from '../../core/config.js';
import { LOOPBACK_URL } from '../../core/constants.js';
import { ensurePrivateDir } from '../../core/fs-util.js';
import { createApiKeyFile } from '../../core/keys.js';
import type { CommandContext } from '../context.js';

export const keyHelp = `Usage: sms-gateway key show | key rotate

  show     print the API key (created on first use)
  rotate   replace the API key; clients using the old one get 401 from the next request on

The key is printed alone on one line, so it can be used in scripts:
  curl -H "Authorization: Bearer $(sms-gateway key show)" ${LOOPBACK_URL}/api/stats
`;

export async function keyCommand(args: string[], ctx: CommandContext): Promise<number> {
  const [action, ...rest] = args;
  if (rest.length > 0 || (action !== 'show' && action !== 'rotate')) return ctx.usage(keyHelp);
  const config = loadConfig(ctx.env);
  ensurePrivateDir(config.home);
  const file = createApiKeyFile(config.home);
  ctx.stdout.write(`${action === 'rotate' ? file.rotate() : file.current()}\n`);
  return 0;
}
