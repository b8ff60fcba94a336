// The calls scripts/make-home-fixtures.mjs makes to a released version's gateway: its API on
// port 8080, its `sms-gateway simulate receive`, and a wait for what they lead to. No shell.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const BASE = 'http://127.0.0.1:8080';

export function run(cmd, args, cwd, env = process.env) {
  const r = spawnSync(cmd, args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.status}`);
}

export async function api(key, method, path, body) {
  const res = await fetch(BASE + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

export async function expectStatus(want, answer) {
  const r = await answer;
  if (r.status !== want) throw new Error(`expected ${want}, got ${r.status}: ${JSON.stringify(r.json)}`);
  return r.json;
}

export async function waitFor(what, check) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await sleep(200);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** `sms-gateway simulate receive` of that version: an SMS into the home's simulated inbox. */
export function simulateReceive(dir, env, from, text) {
  run(process.execPath, [join(dir, 'bin/sms-gateway'), 'simulate', 'receive', '--from', from, text], dir, env);
}
