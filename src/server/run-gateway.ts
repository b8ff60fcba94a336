// createGateway(config): the real process's gateway. Takes the home's lock, loads the key,
// detects the mode, opens the database and composes the parts (server/compose.ts; no side
// effects yet). listen() starts it in order (restore, bind
// port 8080 dual stack with an IPv4 fallback, probes and background work, V8's memory mode a
// second later); stop() stops accepting, lets in-flight requests finish, and releases
// everything.
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { systemClock, type Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import { PORT } from '../core/runtime.js';
import { ensurePrivateDir } from '../core/fs-util.js';
import { favourMemorySoon } from '../core/memory-mode.js';
import { createApiKeyFile, type SecretFile } from '../core/keys.js';
import { acquireLock } from '../core/lock.js';
import type { Mode, RuntimeInfo } from '../core/runtime.js';
import { StartupError } from '../core/errors.js';
import { VERSION } from '../core/package-root.js';
import { findOnPath } from '../device/termux.js';
import { createProbes, type Probes } from '../device/probes.js';
import { openDatabase } from '../store/database.js';
import { currentBootId } from '../device/kill-leftover.js';
import { createWebhookSecretFile } from '../events/signing.js';
import { LISTEN_BACKLOG } from '../http/flood/limits.js';
import { composeGateway, type ComposedGateway } from './compose.js';

export { StartupError };

export interface GatewayOptions {
  config: Config;
  logger?: Logger;
  clock?: Clock;
  env?: NodeJS.ProcessEnv;
}

export interface Gateway {
  app: FastifyInstance;
  runtime: RuntimeInfo;
  /** Why this mode, in a few words: "no termux-sms-send on PATH", "SMS_GATEWAY_MODE=simulated", ... */
  modeReason: string;
  apiKey: SecretFile;
  config: Config;
  /** The composed parts (server/compose.ts). */
  parts: ComposedGateway;
  probes: Probes;
  /** Starts the gateway and listens on port 8080; returns the host it bound ('::' or '0.0.0.0'). */
  listen(): Promise<string>;
  stop(): Promise<void>;
}

/** real if termux-sms-send is on PATH, else simulated; SMS_GATEWAY_MODE forces one. */
export function detectMode(config: Config, env: NodeJS.ProcessEnv): Mode {
  const senderFound = findOnPath('termux-sms-send', env) !== undefined;
  if (config.mode === 'real' && !senderFound) {
    throw new StartupError(
      'SMS_GATEWAY_MODE=real but termux-sms-send is not on PATH: install it with `pkg install termux-api` and the ' +
        'Termux:API app',
    );
  }
  return config.mode ?? (senderFound ? 'real' : 'simulated');
}

/** Why the gateway runs in `mode`, for the start screen and the start log line. */
export function modeReason(config: Config, mode: Mode): string {
  if (config.mode !== undefined) return `SMS_GATEWAY_MODE=${config.mode}`;
  return mode === 'real' ? 'termux-sms-send on PATH' : 'no termux-sms-send on PATH';
}

function openGatewayDb(home: string): ReturnType<typeof openDatabase> {
  const dbPath = join(home, 'gateway.db');
  try {
    return openDatabase(dbPath);
  } catch (err) {
    throw new StartupError(`cannot open ${dbPath}: ${(err as Error).message}`);
  }
}

/** Binds port 8080 dual stack ('::'), or IPv4 only on a phone without IPv6; returns the host. */
async function listenDualStack(app: FastifyInstance): Promise<string> {
  const inUse = () =>
    new StartupError(
      `port ${PORT} is already in use: another gateway or program is listening on it (the port is fixed). ` +
        `See which with \`ss -ltnp 'sport = :${PORT}'\` (or \`lsof -i :${PORT}\`) and stop it`,
    );
  try {
    await app.listen({ port: PORT, host: '::', backlog: LISTEN_BACKLOG });
    return '::';
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw inUse();
    if (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL') throw err;
  }
  // No IPv6 on this phone: IPv4 only.
  try {
    await app.listen({ port: PORT, host: '0.0.0.0', backlog: LISTEN_BACKLOG });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw inUse();
    throw err;
  }
  return '0.0.0.0';
}

export async function createGateway(opts: GatewayOptions): Promise<Gateway> {
  const { config } = opts;
  const clock = opts.clock ?? systemClock;
  const env = opts.env ?? process.env;
  const mode = detectMode(config, env);

  ensurePrivateDir(config.home);
  const releaseLock = acquireLock(config.home);
  try {
    const apiKey = createApiKeyFile(config.home);
    apiKey.current(); // created on first start; a malformed file stops the start here
    const runtime: RuntimeInfo = {
      version: VERSION,
      mode,
      simulation: mode === 'real' ? 'none' : config.simulation,
      smsEnabled: config.smsEnabled,
      startedAt: clock.now(),
    };
    const db = openGatewayDb(config.home);
    const probes = createProbes({ clock, env });
    const webhookSecret = createWebhookSecretFile(config.home);
    webhookSecret.current(); // generated on first start
    const gateway = await composeGateway({
      config,
      db,
      clock,
      runtime,
      probes,
      apiKey,
      logger: opts.logger,
      env,
      webhookSecret: () => webhookSecret.current(),
      bootId: currentBootId(),
    });
    const { app } = gateway;

    let host = '';
    let stopped = false;
    return {
      app,
      runtime,
      modeReason: modeReason(config, mode),
      apiKey,
      config,
      parts: gateway,
      probes,
      async listen() {
        await gateway.start(async () => {
          host = await listenDualStack(app);
        });
        favourMemorySoon(clock);
        return host;
      },
      async stop() {
        if (stopped) return;
        stopped = true;
        try {
          await gateway.stop(); // waits for requests in flight, hand-offs included
        } finally {
          db.close();
          releaseLock();
        }
      },
    };
  } catch (err) {
    releaseLock();
    throw err;
  }
}
