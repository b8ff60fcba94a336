// The homes released versions wrote (test/fixtures/homes/<version>/, made by
// scripts/make-home-fixtures.mjs): a copy of one with what made.json says it holds, and
// today's gateway opened on it with a fake clock and a recording sender.
import type { Test } from 'tap';
import { cpSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { simulatedSmsList } from '../../src/device/simulated-inbox.js';
import { fakeClock } from './fake-clock.js';
import { tempDir } from './paths.js';
import { recordingSender, testApp } from './test-app.js';

const HOMES = fileURLToPath(new URL('../fixtures/homes/', import.meta.url));
/** The webhook target each fixture's gateway had in SMS_GATEWAY_WEBHOOK_URLS (kept in .env on an upgrade). */
export const ENV_TARGET = 'http://127.0.0.1:9/fixture-env-target';
export const API_TARGET = 'http://127.0.0.1:9/fixture-api-target';

type Tags = Record<string, string>;
export interface MadeMessage {
  id: string;
  to: string;
  message: string;
  tags?: Tags;
}
export interface MadeReceived {
  id: string;
  from: string;
  body: string;
  keyword?: string;
  inReplyTo?: { id: string; tags: Tags };
}

/** made.json: what the version's own code made; the fields after `received` are 0.4.0's. */
export interface Made {
  version: string;
  madeAt: string;
  sendAt?: string;
  sent: MadeMessage[];
  queued: MadeMessage[];
  cancelled: MadeMessage[];
  failed: MadeMessage[];
  received: MadeReceived[];
  /** Queued to a number that then opted out: failed opted_out at its turn, never handed off. */
  blocked?: MadeMessage[];
  rules?: { id: string; keyword: string; match: string; reply: string; from: string[] | null; createdAt: string }[];
  optOuts?: { number: string; by: string }[];
  optedBackIn?: string[];
}

export function fixtureHome(t: Test, version: string): { home: string; made: Made } {
  const home = tempDir(t);
  cpSync(join(HOMES, version), home, { recursive: true });
  return { home, made: JSON.parse(readFileSync(join(home, 'made.json'), 'utf8')) as Made };
}

/** Today's gateway on the home (the real routes, a fake clock at `start`, a recording sender). */
export async function openWithToday(t: Test, home: string, start: number) {
  const clock = fakeClock(start);
  const rec = recordingSender();
  const app = await testApp(t, {
    home,
    clock,
    sender: rec.sender,
    webhookUrls: [ENV_TARGET],
    inbox: true,
    inboxList: simulatedSmsList(home, () => 'UTC'),
  });
  app.gateway.sending.start(); // what a start does for the queue: queued messages from before
  return { ...app, handoffs: rec.handoffs };
}
