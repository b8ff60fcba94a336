// The bench's battery phase (scripts/bench/phase-battery.ts) in a short mode: it runs the
// gateway in real mode on the counting fake termux-* commands with the contract's settings,
// on simulated time, scrapes /metrics over port 8080 every 15 s, counts the calls of the
// window per command and scaled to an hour, measures the reply latency, and its table
// prints every figure. MQTT against a real Mosquitto where installed. The e-mail intake is on
// and SMSGate-dialect registrations of system:ping (every 5 minutes here) and sms:received
// are made: the pings of the window and the replies' envelopes reach the rig's receiver.
import t from 'tap';
import { holdPort8080 } from '../helpers/gateway-process.js';
import { tempDir } from '../helpers/paths.js';
import { noBroker, startBroker } from '../mqtt/broker.js';
import { run } from '../../scripts/bench/processes.js';
import { batteryPhase } from '../../scripts/bench/phase-battery.js';
import { batteryRows, batterySetting } from '../../scripts/bench/report-battery.js';

t.test('a short battery phase: calls per command and in total, scrapes, reply latency, the table', async (t) => {
  await holdPort8080(t);
  run.workDir = tempDir(t, 'smsgw-bench-');
  t.teardown(() => void (run.workDir = undefined));
  const broker = noBroker ? undefined : await startBroker(t);
  if (!broker) t.comment(`MQTT not tried: ${String(noBroker)}`);
  const r = await batteryPhase({
    windowMs: 10 * 60_000,
    warmupMs: 2 * 60_000,
    replySamples: 2,
    mqttUrl: broker?.url,
    pingMinutes: 5,
  });
  t.ok(r.scrapes >= 39 && r.scrapes <= 40, `a scrape every 15 s of the 10 minutes (${r.scrapes})`);
  t.equal(r.scaled, true, 'a 10 minute window is scaled to the hour, and says so');
  t.ok(r.callsPerHour['termux-sms-list']! > 0, 'the inbox is read');
  t.ok(r.callsPerHour['termux-battery-status']! > 0, 'the scrapes read the battery');
  t.equal(r.callsPerHour['termux-sms-send'], 0, 'nothing is sent while idle');
  const sum = Object.entries(r.callsPerHour)
    .filter(([name]) => name.startsWith('termux-'))
    .reduce((s, [, n]) => s + n, 0);
  t.equal(r.termuxApiPerHour, Math.round(sum * 10) / 10, 'the total is the sum of the Termux:API commands');
  t.equal(r.smtp.listening, true, `the e-mail intake listens on its port (${r.smtp.port})`);
  t.same(r.smsgate.events, ['system:ping', 'sms:received'], 'both SMSGate registrations were made');
  t.equal(r.smsgate.pingsExpected, 2, 'a ping every 5 minutes: 2 in the 10 minute window');
  t.equal(r.smsgate.pingsInWindow, 2, 'the receiver got both pings of the window');
  t.equal(r.smsgate.receivedEnvelopes, 2, 'each reply reached the sms:received registration');
  t.ok(r.timersPerHour > 0, `the gateway's own timers are counted (${r.timersPerHour} an hour)`);
  t.equal(r.replySeconds.length, 2);
  t.ok(r.replyMedianS <= 10, `a reply 2 minutes after a send is announced within 10 s (${r.replyMedianS} s)`);
  const lines = batteryRows(r).map((row) => row.join(' | '));
  t.comment(lines.join('\n'));
  t.match(lines.join('\n'), /Termux:API calls per idle hour/);
  t.match(lines.join('\n'), /termux-sms-list/);
  t.match(lines.join('\n'), /reply announced/);
  t.match(lines.join('\n'), /SMSGate system:ping received in the window \(one every 5 min\) \| 2 \| +\| 2 \| met/);
  t.match(batterySetting(r), /SMTP on port \d+, SMSGate registrations of system:ping and sms:received/);
});
