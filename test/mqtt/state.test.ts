// The MQTT state topic and `sms-gateway status` name the same problems: both take them
// from the diagnostics (status/check.ts needsAttention). In simulated mode the phone's
// checks are `unknown` (no phone to tell), which is no problem for either.
import t from 'tap';
import { formatStatus } from '../../src/cli/commands/status.js';
import { createStatePublisher } from '../../src/mqtt/state.js';
import { topicsFor } from '../../src/mqtt/topics.js';
import type { Diagnostics } from '../../src/status/diagnostics.js';
import type { HostInfo } from '../../src/status/host-info.js';
import { testApp } from '../helpers/test-app.js';

async function both(t: Parameters<typeof testApp>[0], diag: Diagnostics, info: HostInfo) {
  const published: string[] = [];
  const a = await testApp(t);
  const state = createStatePublisher({
    publish: (_topic, payload) => published.push(payload) > 0,
    topics: topicsFor('sms-gateway', 'gw1'),
    probes: { shown: () => ({ battery: {}, wifi: {} }) as never, onRead: () => () => undefined },
    stats: { day: () => ({ sent: 0, failed: 0 }) as never },
    calendar: () => ({ dayOf: () => '2026-11-21' }) as never,
    clock: a.clock,
    waiting: () => 0,
    diagnostics: async () => diag,
  });
  await state.refreshStatus();
  const stateProblems = (JSON.parse(published.at(-1)!) as { problems: string[] }).problems;
  const statusProblems = [...formatStatus(info, diag).matchAll(/^ {4}(?:FAIL|WARN) (\w+):/gm)].map((m) => m[1]);
  return { stateProblems, statusProblems, text: formatStatus(info, diag) };
}

t.test('simulated mode: state and status agree (every check is ok, unknown is no problem)', async (t) => {
  const a = await testApp(t);
  const diag = (await a.get('/api/diagnostics')).json().data as Diagnostics;
  const info = (await a.get('/api/host/info')).json().data as HostInfo;
  t.ok(
    Object.values(diag.checks).some((c) => c.status === 'unknown'),
    'simulated mode has unknown checks',
  );
  const r = await both(t, diag, info);
  t.match(r.text, /Every check is ok\./);
  t.same(r.stateProblems, [], 'the state topic lists no problem either');
  t.same(r.stateProblems, r.statusProblems);
});

t.test('degraded and failing checks: the same names on both', async (t) => {
  const a = await testApp(t);
  const diag = (await a.get('/api/diagnostics')).json().data as Diagnostics;
  const info = (await a.get('/api/host/info')).json().data as HostInfo;
  const names = Object.keys(diag.checks);
  (diag.checks as Record<string, { status: string }>)[names[0]!]!.status = 'degraded';
  (diag.checks as Record<string, { status: string }>)[names[1]!]!.status = 'failing';
  const r = await both(t, diag, info);
  t.same(r.stateProblems, [names[0], names[1]]);
  t.same(r.stateProblems, r.statusProblems);
});
