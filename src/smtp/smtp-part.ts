// The e-mail intake (SMS_GATEWAY_SMTP_PORT), a part with the HTTP server's start and stop:
// attached to the Fastify app, it binds its port when the app gets ready (before port 8080 is
// bound: a port already in use stops the start with one clear line) and closes with the app.
// Loaded only when configured (server/compose.ts imports this file then): a gateway without
// it opens no socket and loads no SMTP module. smtp-server speaks SMTP (no hand-written
// SMTP here); the size limit, the session and idle time limits and the number of clients
// bound what one device, or a flood of them, can hold.
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import type { Logger } from 'pino';
import type { Clock } from '../core/clock.js';
import type { Config } from '../core/config.js';
import type { SecretFile } from '../core/keys.js';
import type { SmtpSettings } from '../core/smtp-settings.js';
import { StartupError } from '../core/errors.js';
import type { SendingPart } from '../sms/sending-part.js';
import { newSmtpHealth, type SmtpHealth } from '../status/smtp-check.js';
import type { StatusPart } from '../status/status-part.js';
import { createMailIntake } from './mail-intake.js';
import { MAIL_MAX_BYTES } from './smtp-answers.js';
import { smtpHandlers } from './smtp-handlers.js';
import { trustedSenders } from './trusted-senders.js';

/** One SMTP session may last this long in all (a device sends one mail in a second or two). */
export const SESSION_MS = 120_000;
/** A client silent this long is dropped. */
export const IDLE_MS = 30_000;
/** At most this many clients at once; more are answered 421. */
export const MAX_CLIENTS = 20;

export interface SmtpPartDeps {
  settings: SmtpSettings;
  apiKey: Pick<SecretFile, 'current'>;
  contacts: () => Config['contacts'];
  sending: Pick<SendingPart, 'enqueue' | 'messages' | 'optOuts'>;
  clock: Clock;
  logger?: Logger | undefined;
}

function tlsOptions(settings: SmtpSettings): Partial<SMTPServerOptions> {
  if (!settings.tls) return { disabledCommands: ['STARTTLS'] };
  const read = (path: string, what: string) => {
    try {
      return readFileSync(path);
    } catch (err) {
      throw new StartupError(`cannot read the SMTP TLS ${what} ${path}: ${(err as Error).message}`);
    }
  };
  return {
    key: read(settings.tls.keyPath, 'key (SMS_GATEWAY_SMTP_TLS_KEY)'),
    cert: read(settings.tls.certPath, 'certificate (SMS_GATEWAY_SMTP_TLS_CERT)'),
  };
}

/** Binds `port` on `host`; the port taken (or not allowed) is one clear line. */
function bind(server: SMTPServer, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => {
      if (err.code === 'EADDRINUSE') {
        reject(
          new StartupError(
            `SMTP port ${port} (SMS_GATEWAY_SMTP_PORT) is already in use: another program is listening on it. ` +
              `See which with \`ss -ltnp 'sport = :${port}'\` and stop it, or choose another port`,
          ),
        );
      } else if (err.code === 'EACCES')
        reject(
          new StartupError(`SMTP port ${port} (SMS_GATEWAY_SMTP_PORT) may not be bound here: choose 1024 or above`),
        );
      else reject(err);
    };
    server.server.once('error', onError);
    server.server.listen(port, host, () => {
      server.server.off('error', onError);
      const address = server.server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}

/** The SMTP server with the intake's handlers and limits, not listening yet. */
function buildServer(
  settings: SmtpSettings,
  handlers: ReturnType<typeof smtpHandlers>,
  sockets: Set<Socket>,
  logger?: Logger,
) {
  const s = new SMTPServer({
    ...tlsOptions(settings),
    ...handlers,
    banner: 'sms-gateway: e-mail to SMS',
    size: MAIL_MAX_BYTES,
    rejectOversized: true,
    authMethods: ['PLAIN', 'LOGIN'],
    authOptional: true, // trusted senders need none; the handlers ask the others at MAIL and RCPT
    allowInsecureAuth: true, // devices on the LAN speak plain SMTP (docs/email.md says what that means)
    disableReverseLookup: true,
    logger: false,
    socketTimeout: settings.idleMs ?? IDLE_MS,
    closeTimeout: 1000,
    maxClients: MAX_CLIENTS,
  });
  s.on('error', (err: Error) => logger?.debug({ err: err.message }, 'an SMTP connection failed'));
  // The whole session's deadline: a client dribbling a byte now and then is not idle, but is dropped here.
  s.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    const deadline = setTimeout(() => socket.destroy(), settings.sessionMs ?? SESSION_MS);
    deadline.unref();
    socket.once('close', () => {
      clearTimeout(deadline);
      sockets.delete(socket);
    });
  });
  return s;
}

export function createSmtpPart(deps: SmtpPartDeps) {
  const { settings, clock, logger } = deps;
  const health: SmtpHealth = newSmtpHealth(settings.port, settings.tls !== undefined, settings.trusted.length);
  const intake = createMailIntake({ enqueue: deps.sending.enqueue, store: deps.sending.messages, logger });
  const handlers = smtpHandlers({
    segments: settings.segments,
    apiKey: () => deps.apiKey.current(),
    contacts: deps.contacts,
    optOuts: deps.sending.optOuts,
    intake,
    trusted: trustedSenders(settings.trusted),
    refused(reason) {
      health.refused[reason]++;
      health.lastRefusal = { reason, at: clock.now() };
      logger?.info({ reason }, 'the e-mail intake refused a mail or a step of one');
    },
    accepted(repeated) {
      health.mailsAccepted++;
      if (repeated) health.mailsRepeated++;
    },
  });
  let server: SMTPServer | undefined;
  const sockets = new Set<Socket>();

  return {
    health: (): Readonly<SmtpHealth> => health,
    /** Binds the port (every interface, IPv4 only on a phone without IPv6); a StartupError when it cannot. */
    async start(): Promise<void> {
      if (server) return;
      const s = buildServer(settings, handlers, sockets, logger);
      const hosts = settings.host ? [settings.host] : ['::', '0.0.0.0'];
      for (const [i, host] of hosts.entries()) {
        try {
          health.port = await bind(s, settings.port, host);
          break;
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (i === hosts.length - 1 || (code !== 'EAFNOSUPPORT' && code !== 'EADDRNOTAVAIL')) throw err;
        }
      }
      server = s;
      health.listening = true;
      health.since = clock.now();
      logger?.info({ port: health.port, starttls: health.tls }, 'the e-mail intake is listening');
    },
    /** Stops accepting; sessions in flight get a second, then are closed. */
    async stop(): Promise<void> {
      const s = server;
      if (!s) return;
      server = undefined;
      health.listening = false;
      await new Promise<void>((resolve) => s.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
    },
  };
}

export type SmtpPart = ReturnType<typeof createSmtpPart>;

export interface AttachDeps {
  app: { addHook(name: 'onReady' | 'onClose', hook: () => Promise<void>): unknown };
  config: Pick<Config, 'smtp' | 'contacts'>;
  apiKey: SmtpPartDeps['apiKey'];
  sending: SmtpPartDeps['sending'];
  status: Pick<StatusPart, 'reportSmtp'>;
  clock: Clock;
  logger?: Logger | undefined;
}

/** The intake built and attached to the app's start (onReady) and stop (onClose); its health reported. */
export function attachSmtp(deps: AttachDeps): SmtpPart | undefined {
  const settings = deps.config.smtp;
  if (!settings) return undefined;
  const part = createSmtpPart({ ...deps, settings, contacts: () => deps.config.contacts });
  deps.app.addHook('onReady', () => part.start());
  deps.app.addHook('onClose', () => part.stop());
  deps.status.reportSmtp(part.health);
  return part;
}
