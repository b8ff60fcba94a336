// Runs one command of the docs (read by shell-words.ts) as written, without a shell, in a
// session like a new user's terminal on the laptop: a project folder with ./bin/sms-gateway,
// `sms-gateway` on the PATH, $HOME and SMS_GATEWAY_HOME in a temp dir, and the variables the
// docs set. The docs' placeholders become the local gateway: the phone's address
// 192.168.1.50 is 127.0.0.1, an id the docs show in an answer is the id the gateway really
// answered, and a date of a request body is tomorrow's. A curl must get the status the docs
// show after it (`# 204`, `# 201 {...}`), else a 2xx, and an answer with every field name the
// docs show in it (unless its data is empty); any other command exits 0, or the
// `exit code N` its comment names. What it says is a problem, or undefined when it ran as
// documented. It never logs the key: commands are named by their text in the docs.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Test } from 'tap';
import { ROOT, tempDir } from '../helpers/paths.js';
import type { Command, Word } from './shell-words.js';

export interface Session {
  /** The project folder the commands run in: bin/ and node_modules/ of this checkout. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** $HOME (`~`); the gateway's home is its .sms-gateway, the default. */
  home: string;
  vars: Map<string, string>;
  /** An id the docs show in an answer -> the id the gateway answered there. */
  ids: Map<string, string>;
  /** When the last synchronous send was made (the send path's 1-second spacing). */
  lastSyncSend: number;
}

/** The phone's address in the docs' examples, and where the test's gateway listens. */
const PHONE = /(?:192\.168\.1\.50|<phone-ip>)(?=:8080)/g;
const LOCAL = '127.0.0.1';
/** Ids of records the gateway makes (messages, webhook targets, received SMS, keyword rules). */
const ID = /\b(msg|wh|in|rule)_[0-9a-z]{26}\b/g;
/** The date of a timestamp (2026-11-23T07:30:00+01:00). */
const STAMP_DATE = /\b\d{4}-\d{2}-\d{2}(?=T\d{2}:\d{2})/g;
const SPACING_MS = 1000;
/** The system's part of the session's PATH. */
const SYSTEM_PATH = ['/usr/local/bin', '/usr/bin', '/bin'];

/** Where a program is found in the system's PATH directories, or undefined. */
export function onSystemPath(program: string): string | undefined {
  return SYSTEM_PATH.map((d) => join(d, program)).find((p) => existsSync(p));
}

/** A terminal for the docs' commands: the directories, the PATH and the environment. */
export function newSession(t: Test): Session {
  const home = tempDir(t, 'smsgw-docs-');
  const cwd = join(home, 'sms-gateway');
  const bin = join(home, 'path-bin');
  mkdirSync(cwd);
  mkdirSync(bin);
  symlinkSync(join(ROOT, 'bin'), join(cwd, 'bin'));
  symlinkSync(join(ROOT, 'node_modules'), join(cwd, 'node_modules'));
  symlinkSync(join(ROOT, 'bin/sms-gateway'), join(bin, 'sms-gateway'));
  const env: NodeJS.ProcessEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('SMS_GATEWAY_')));
  Object.assign(env, {
    HOME: home,
    SMS_GATEWAY_HOME: join(home, '.sms-gateway'),
    PATH: [bin, dirname(process.execPath), ...SYSTEM_PATH].join(':'),
    npm_config_offline: 'true', // npx runs the checkout's own tools, never a download
  });
  return { cwd, env, home, vars: new Map(), ids: new Map(), lastSyncSend: 0 };
}

interface Ran {
  code: number | null;
  out: string;
  err: string;
}

function spawnArgv(argv: string[], s: Session): Promise<Ran> {
  return new Promise((resolve) => {
    const p = spawn(argv[0]!, argv.slice(1), { cwd: s.cwd, env: s.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 60_000 });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('error', (e) => resolve({ code: null, out, err: err + e.message }));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

/** One argument with the docs' placeholders made local. */
function localized(arg: string, s: Session): string {
  return arg
    .replace(PHONE, LOCAL)
    .replace(ID, (id) => s.ids.get(id) ?? id)
    .replace(STAMP_DATE, tomorrow());
}

/** The words expanded: variables, `~`, $(...) (which must exit 0). Throws a problem. */
async function expand(words: Word[], s: Session): Promise<string[]> {
  const argv: string[] = [];
  for (const word of words) {
    let text = '';
    for (const part of word) {
      if ('lit' in part) text += part.lit;
      else if ('home' in part) text += s.home;
      else if ('var' in part) {
        // ${NAME:-default}: the docs' value, else the session's environment (the user's shell), else the default.
        const fallback = async (or: Word) => s.env[part.var] || (await expand([or], s))[0];
        const value = s.vars.get(part.var) ?? (part.or ? await fallback(part.or) : undefined);
        if (value === undefined) throw new Error(`$${part.var} is set by no command of the docs`);
        text += value;
      } else {
        const inner = await expand(part.subst, s);
        const ran = await spawnArgv(inner, s);
        if (ran.code !== 0) throw new Error(`its $(${inner[0]} ...) exited ${ran.code}: ${ran.err.trim()}`);
        text += ran.out.replace(/\n+$/, '');
      }
    }
    argv.push(localized(text, s));
  }
  return argv;
}

/** The JSON field names in a text (an answer, or the docs' picture of one). */
const fields = (text: string) => new Set([...text.matchAll(/"([A-Za-z_][A-Za-z0-9_]*)":/g)].map((m) => m[1]!));

/** Maps the ids the docs show in an answer to those of the real answer, by kind and position. */
function learnIds(shown: string, body: string, s: Session): void {
  const real = [...body.matchAll(ID)].map((m) => m[0]);
  const seen = new Map<string, number>();
  for (const [doc, kind] of [...shown.matchAll(ID)].map((m) => [m[0], m[1]!] as const)) {
    const n = seen.get(kind) ?? 0;
    seen.set(kind, n + 1);
    const answered = real.filter((id) => id.startsWith(`${kind}_`))[n];
    if (answered && !s.ids.has(doc)) s.ids.set(doc, answered);
  }
}

/** Waits out the send path's 1-second spacing since the last synchronous send (a user types slower). */
async function spaced(isSyncSend: boolean, s: Session, run: () => Promise<Ran>): Promise<Ran> {
  if (!isSyncSend) return run();
  const wait = s.lastSyncSend + SPACING_MS + 50 - Date.now();
  if (wait > 0) await sleep(wait);
  const ran = await run();
  s.lastSyncSend = Date.now();
  return ran;
}

/** Sets a variable the docs define (`KEY=$(sms-gateway key show)`). */
export async function assign(c: Command, s: Session): Promise<string | undefined> {
  try {
    const [value] = await expand([c.assigns!.value], s);
    s.vars.set(c.assigns!.name, value!);
    return value ? undefined : `${c.assigns!.name} is empty`;
  } catch (err) {
    return (err as Error).message;
  }
}

/** Runs one command: a problem, or undefined when it did what the docs say. */
export async function run(c: Command, s: Session): Promise<string | undefined> {
  let argv: string[];
  try {
    argv = await expand(c.words, s);
  } catch (err) {
    return (err as Error).message;
  }
  if (argv[0] === 'curl') return curl(argv, c.shown, s);
  const isSyncSend = /(^|\/)sms-gateway$/.test(argv[0]!) && argv[1] === 'send';
  const ran = await spaced(isSyncSend, s, () => spawnArgv(argv, s));
  const expected = Number(/\bexit code (\d+)/.exec(c.shown)?.[1] ?? 0);
  if (ran.code !== expected) return `exited ${ran.code}, the docs say ${expected}: ${(ran.err || ran.out).trim().slice(0, 400)}`;
  return undefined;
}

async function curl(argv: string[], shown: string, s: Session): Promise<string | undefined> {
  const full = [...argv, '--silent', '--show-error', '--max-time', '20', '--write-out', '\n%{http_code}'];
  const isSyncSend = argv.some((a) => /^https?:\/\/[^/]+\/api\/sms\/send(\?|$)/.test(a));
  const ran = await spaced(isSyncSend, s, () => spawnArgv(full, s));
  if (ran.code !== 0) return `curl exited ${ran.code}: ${ran.err.trim()}`;
  const cut = ran.out.lastIndexOf('\n');
  const status = Number(ran.out.slice(cut + 1));
  const body = ran.out.slice(0, cut);
  const documented = /^(\d{3})\b/.exec(shown)?.[1];
  const ok = documented ? status === Number(documented) : status >= 200 && status < 300;
  if (!ok) return `answered ${status}, the docs ${documented ? `show ${documented}` : 'imply a 2xx'}: ${body.slice(0, 400)}`;
  const answered = fields(body);
  const missing = [...fields(shown)].filter((f) => !answered.has(f));
  if (missing.length > 0 && !/"data":\[\]/.test(body)) return `the docs show fields the answer does not have: ${missing.join(', ')}`;
  learnIds(shown, body, s);
  return undefined;
}
