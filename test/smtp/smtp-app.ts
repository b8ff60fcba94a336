// The gateway with its e-mail intake on 127.0.0.1 (an ephemeral port), and the real clients
// the tests mail through: nodemailer, curl's SMTP, swaks, msmtp and Python's smtplib (each
// run with execFile, never a shell), plus a raw socket for what no client would send.
import { execFile } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import type { Test } from 'tap';
import nodemailer from 'nodemailer';
import type { SmtpSettings } from '../../src/core/smtp-settings.js';
import { testApp, type TestAppOptions } from '../helpers/test-app.js';

export interface StoredMessage {
  id: string;
  to: string;
  body: string;
  status: string;
  reason: string | null;
  segments: number;
  tags: Record<string, string>;
  origin: string;
}

export async function smtpApp(t: Test, smtp: Partial<SmtpSettings> = {}, opts: TestAppOptions = {}) {
  const settings: SmtpSettings = { port: 0, host: '127.0.0.1', tls: undefined, trusted: [], segments: 2, ...smtp };
  const a = await testApp(t, { ...opts, smtp: settings });
  await a.app.ready(); // the intake binds its port here
  const diagnostics = async () => (await a.gateway.status.diagnostics()).checks.smtp;
  const port = (await diagnostics()).value.port!;
  /** The history, oldest first. */
  const messages = async (): Promise<StoredMessage[]> => {
    const res = await a.get('/api/messages?limit=100');
    return (res.json().data as StoredMessage[]).reverse();
  };
  /** nodemailer to the intake; null: without AUTH. */
  const transport = (auth: { user: string; pass: string } | null = { user: 'x', pass: a.key }) =>
    nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, ...(auth ? { auth } : {}) });
  return { ...a, port, diagnostics, messages, transport };
}

/** The SMTP reply code a client's send was refused with (250 when it was not). */
export async function replyCode(sending: Promise<unknown>): Promise<number | undefined> {
  return sending.then(
    () => 250,
    (err: { responseCode?: number }) => err.responseCode,
  );
}

/** Runs a client program (no shell); its exit code and output, whatever they are. */
export function run(
  file: string,
  args: string[],
  input?: string | Buffer,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile(file, args, { timeout: 30_000, maxBuffer: 20 * 1024 * 1024 }, (err, stdout, stderr) => {
      const code = err
        ? typeof (err as { code?: unknown }).code === 'number'
          ? (err as { code: number }).code
          : 1
        : 0;
      resolve({ code, stdout: String(stdout), stderr: String(stderr) });
    });
    if (input !== undefined) child.stdin!.end(input);
  });
}

/** A raw SMTP conversation: send lines, read the server's replies. */
export function rawClient(port: number) {
  const socket: Socket = connect(port, '127.0.0.1');
  let buffer = '';
  const waiters: (() => void)[] = [];
  socket.on('data', (d) => {
    buffer += d.toString('latin1');
    for (const w of waiters.splice(0)) w();
  });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('close', () => {
    for (const w of waiters.splice(0)) w();
  });
  socket.on('error', () => {});
  /** The next complete reply (its last line has a space after the code). */
  const reply = async (): Promise<string> => {
    for (;;) {
      const m = /^(?:\d{3}-.*\r\n)*\d{3} .*\r\n/.exec(buffer);
      if (m) {
        buffer = buffer.slice(m[0].length);
        return m[0];
      }
      if (socket.destroyed) return '';
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  const send = (text: string | Buffer) => socket.write(text);
  const ask = async (line: string) => {
    send(`${line}\r\n`);
    return reply();
  };
  return { socket, reply, send, closed, ask };
}
