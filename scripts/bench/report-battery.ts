// The battery phase's table (issue 37): Termux:API calls per idle hour with the contract's
// settings, per command and in total against the budget, the SMSGate pings of the window,
// and the reply latency in the fast window against its bound; its title names what was on.
import { log } from './measure.js';
import type { batteryPhase } from './phase-battery.js';
import { printTable, type Row } from './report.js';

type Battery = Awaited<ReturnType<typeof batteryPhase>>;

export function batteryRows(b: Battery): Row[] {
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  const how = b.scaled ? `${b.windowMinutes} min scaled to 60` : 'a whole hour, counted';
  const perCommand: Row[] = Object.entries(b.callsPerHour).map(([name, n]) => [
    `  ${name}`,
    `${n}`,
    `${b.warmupCalls[name] ?? 0}`,
    '',
    '',
  ]);
  return [
    [
      `Termux:API calls per idle hour (${how}; ${b.scrapes} scrapes${b.mqtt ? ', MQTT' : ', no MQTT'}, SMTP, SMSGate ping)`,
      `${b.termuxApiPerHour}`,
      '',
      `<= ${b.budget}`,
      met(b.termuxApiPerHour <= b.budget),
    ],
    ...perCommand,
    ["the gateway's timers fired in the idle hour (wake-ups; the scrapes left out)", `${b.timersPerHour}`, '', '', ''],
    [
      `SMSGate system:ping received in the window (one every ${b.smsgate.pingMinutes} min)`,
      `${b.smsgate.pingsInWindow}`,
      '',
      `${b.smsgate.pingsExpected}`,
      met(b.smsgate.pingsInWindow === b.smsgate.pingsExpected),
    ],
    [
      `SMSGate sms:received envelopes of the ${b.replySeconds.length} replies`,
      `${b.smsgate.receivedEnvelopes}`,
      '',
      `${b.replySeconds.length}`,
      met(b.smsgate.receivedEnvelopes === b.replySeconds.length),
    ],
    [
      `reply announced after it arrived, s (median of ${b.replySeconds.length}: ${b.replySeconds.join(', ')})`,
      `${b.replyMedianS}`,
      '',
      `<= ${b.replyWithinS}`,
      met(b.replyMedianS <= b.replyWithinS),
    ],
  ];
}

/** What was on during the idle window, in a line. */
export function batterySetting(b: Battery): string {
  return [
    'real mode on fake termux-* commands',
    'the inbox',
    'a native webhook target',
    b.mqtt ? 'MQTT with Home Assistant discovery (Mosquitto)' : 'no MQTT (Mosquitto missing)',
    `SMTP on port ${b.smtp.port}${b.smtp.listening ? '' : ' (NOT listening)'}`,
    `SMSGate registrations of ${b.smsgate.events.join(' and ')}`,
    `/metrics every 15 s`,
  ].join(', ');
}

export function printBatteryTable(b: Battery): void {
  log('');
  log(`battery: on during the idle window: ${batterySetting(b)}`);
  log(
    `battery (issue 37): simulated time, ${b.warmupMinutes} min warm-up then the window; ${b.realSeconds} s of real time`,
  );
  printTable(
    ['figure (issue #37)', 'per hour', `in the ${b.warmupMinutes} min warm-up`, 'target', 'result'],
    batteryRows(b),
  );
}
