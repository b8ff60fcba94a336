// The battery phase's table (issue 37): Termux:API calls per idle hour with the contract's
// settings, per command and in total against the budget, and the reply latency in the
// fast window against its bound.
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
      `Termux:API calls per idle hour (${how}; ${b.scrapes} scrapes${b.mqtt ? ', MQTT' : ', no MQTT'})`,
      `${b.termuxApiPerHour}`,
      '',
      `<= ${b.budget}`,
      met(b.termuxApiPerHour <= b.budget),
    ],
    ...perCommand,
    [
      `reply announced after it arrived, s (median of ${b.replySeconds.length}: ${b.replySeconds.join(', ')})`,
      `${b.replyMedianS}`,
      '',
      `<= ${b.replyWithinS}`,
      met(b.replyMedianS <= b.replyWithinS),
    ],
  ];
}

export function printBatteryTable(b: Battery): void {
  log('');
  log(
    `battery (issue 37): simulated time, ${b.warmupMinutes} min warm-up then the window; ${b.realSeconds} s of real time`,
  );
  printTable(
    ['figure (issue #37)', 'per hour', `in the ${b.warmupMinutes} min warm-up`, 'target', 'result'],
    batteryRows(b),
  );
}
