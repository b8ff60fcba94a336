// sms-gateway start: runs the gateway in the foreground. On a terminal it shows the start
// screen and reads single keys (r: new key, q: quit); without one (Termux:Boot, runit)
// it logs the mode (and why), the URL once with a hint, and never the key or the QR code.
import { createLogger } from '../../core/logging.js';
import { loadConfig } from '../../core/config.js';
import { PORT } from '../../core/runtime.js';
import { createGateway } from '../../server/run-gateway.js';
import { lanAddresses } from '../../device/lan.js';
import { modeLine, renderStartScreen, urlsFor } from '../start-screen.js';
import type { CommandContext } from '../context.js';

export const startHelp = `Usage: sms-gateway start

Starts the gateway on port ${PORT} (all interfaces) in the foreground.
On a terminal it shows the mode (real or simulated, and why), the LAN URL, the API key
and a QR code, then one line per request.
  r   make a new API key (the old one stops working at once) and redraw
  q   stop the gateway (Ctrl-C works too)
Configuration comes from the environment and $SMS_GATEWAY_HOME/.env (see .env.example).
`;

export async function startCommand(args: string[], ctx: CommandContext): Promise<number> {
  if (args.length > 0) return ctx.usage(startHelp);
  const config = loadConfig(ctx.env);
  const tty = ctx.stdout.isTTY === true;
  const logger = createLogger(config.logLevel, { pretty: tty, destination: ctx.stdout });
  const gateway = await createGateway({ config, logger, env: ctx.env });
  try {
    await gateway.listen();
  } catch (err) {
    await gateway.stop();
    throw err;
  }
  const addresses = await lanAddresses();
  const urls = urlsFor(addresses);
  const mode = { mode: gateway.runtime.mode, reason: gateway.modeReason, smsEnabled: gateway.runtime.smsEnabled };
  const smtpSettings = gateway.config.smtp;
  const smtp = smtpSettings ? { port: smtpSettings.port, starttls: smtpSettings.tls !== undefined } : undefined;

  let resolveExit!: (code: number) => void;
  const exited = new Promise<number>((resolve) => (resolveExit = resolve));
  let stopping = false;
  const stop = async (why: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ why }, 'stopping: finishing requests in flight');
    if (tty && ctx.stdin.isTTY) ctx.stdin.setRawMode?.(false);
    ctx.stdin.pause();
    await gateway.stop();
    logger.info('stopped');
    resolveExit(0);
  };
  const onSignal = (signal: string) => void stop(signal);
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  const draw = async () => {
    const screen = { addresses, key: gateway.apiKey.current(), tty, mode, version: gateway.runtime.version, smtp };
    ctx.stdout.write(
      await renderStartScreen({ ...screen, columns: 'columns' in ctx.stdout ? ctx.stdout.columns : undefined }),
    );
  };

  if (tty) {
    await draw();
    if (ctx.stdin.isTTY) {
      ctx.stdin.setRawMode?.(true);
      ctx.stdin.resume();
      ctx.stdin.on('data', (chunk: Buffer) => {
        const ch = chunk.toString('utf8');
        if (ch === 'q' || ch === 'Q' || ch === '\u0003') void stop('q');
        else if (ch === 'r' || ch === 'R') {
          gateway.apiKey.rotate();
          logger.info('API key rotated from the start screen');
          ctx.stdout.write('\x1b[2J\x1b[H');
          void draw();
        }
      });
    }
  } else {
    logger.info(
      { urls, mode: mode.mode, modeReason: mode.reason, smsEnabled: mode.smsEnabled, smtpPort: smtp?.port },
      `sms-gateway is listening. ${modeLine(mode)} Run \`sms-gateway key show\` for the API key`,
    );
  }

  const code = await exited;
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return code;
}
