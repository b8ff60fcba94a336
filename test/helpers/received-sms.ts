// A test gateway whose inbox watcher reads the simulated inbox (what `simulate receive`
// writes) in its home: receive() adds an SMS, polls and runs the queue; restart() stops
// nothing and starts a second gateway on the same home (a new process after a crash).
import type { Test } from 'tap';
import { appendSimulatedSms, simulatedSmsList } from '../../src/device/simulated-inbox.js';
import { fakeClock } from './fake-clock.js';
import { tempDir } from './paths.js';
import { testApp, type TestAppOptions } from './test-app.js';

export type Message = { id: string; to: string; body: string; status: string; reason: string | null; origin: string };

export async function withSimulatedInbox(t: Test, opts: TestAppOptions = {}, home = tempDir(t), baseline = true) {
  const a = await testApp(t, { inbox: true, home, inboxList: simulatedSmsList(home, () => 'UTC'), ...opts });
  if (baseline) await a.gateway.inbox.watcher.pollOnce();
  const receive = async (from: string, body: string) => {
    appendSimulatedSms(home, { from, body }, a.clock.now());
    a.clock.advance(1000);
    await a.gateway.inbox.watcher.pollOnce();
    await a.gateway.sending.lane.runDue();
  };
  const messages = async () => (await a.get('/api/messages?limit=100')).json().data as Message[];
  const listed = async () => {
    const entries = (await a.get('/api/opt-outs')).json().data as { number: string }[];
    return entries.map((e) => e.number);
  };
  /** A second gateway on the same home, its clock `laterMs` on; it polls (and runs the queue) at once. */
  const restart = async (laterMs = 60_000, over: TestAppOptions = {}) => {
    const clock = fakeClock(a.clock.now() + laterMs);
    const next = await withSimulatedInbox(t, { ...opts, clock, ...over }, home, false);
    await next.gateway.inbox.watcher.pollOnce();
    await next.gateway.sending.lane.runDue();
    return next;
  };
  return { ...a, receive, messages, listed, restart };
}
