// Overview: mode, battery, signal, SIMs, the queue and its pause, every diagnostics check
// under a name for people with its fix where one is needed, and sent/failed per day for
// 14 days. Refreshed while visible.
import { useState } from 'preact/hooks';
import type { CheckName, Checks } from '../status/checks-schema.js';
import { describe } from './api.js';
import { DailyChart, type DayCounts } from './chart.js';
import { usePoll } from './poll.js';
import { ErrorLine, Field, when, type ViewProps } from './ui.js';

interface Diagnostics {
  status: string;
  checkedAt: string;
  mode: string;
  checks: Checks;
}
interface HostInfo {
  sims: { slot: number; carrier: string | null; state: string | null }[];
  defaultSimSlot: number;
  carrier: string | null;
  networkType: string | null;
  gateway: { version: string; mode: string; simulation: string; lanUrls: string[] };
}

/** Each check's name for people (the API's names are for programs). */
const CHECK_NAMES: Record<CheckName, string> = {
  termuxApi: 'Termux:API',
  sms: 'SMS sending',
  database: 'Database',
  sendBudget: 'Send budget',
  queue: 'Queue',
  androidSmsLimit: 'Android SMS limit',
  battery: 'Battery',
  wifi: 'Wi-Fi',
  telephony: 'Mobile network',
  disk: 'Storage',
  process: 'Gateway process',
  apiKey: 'API key',
  webhooks: 'Webhooks',
  mqtt: 'MQTT',
  smtp: 'E-mail to SMS',
};

const yesNo = (b: boolean | null | undefined) => (b === null || b === undefined ? 'unknown' : b ? 'yes' : 'no');

function Status({ status }: { status: string }) {
  return <span class={`badge badge-${status}`}>{status}</span>;
}

/** The gateway, the phone and the queue at a glance. */
function Cards({ diag, host }: { diag: Diagnostics; host: HostInfo }) {
  const { battery, wifi, telephony, queue } = diag.checks;
  return (
    <div class="cards">
      <dl class="card">
        <Field
          label="Mode"
          value={`${diag.mode}${host.gateway.simulation !== 'none' ? ` (${host.gateway.simulation})` : ''}`}
        />
        <Field label="Overall" value={<Status status={diag.status} />} />
        <Field label="Version" value={host.gateway.version} />
        <Field label="Checked" value={when(diag.checkedAt)} />
      </dl>
      <dl class="card">
        <Field
          label="Battery"
          value={
            battery.value.level === null
              ? 'unknown'
              : `${battery.value.level}%${battery.value.charging ? ', charging' : ''}`
          }
        />
        <Field
          label="Network"
          value={
            `${telephony.value.carrier ?? host.carrier ?? 'unknown carrier'}, ` +
            `${telephony.value.networkType ?? host.networkType ?? 'unknown type'}`
          }
        />
        <Field label="Wi-Fi signal" value={wifi.value.rssi === null ? 'unknown' : `${wifi.value.rssi} dBm`} />
        <Field
          label="SIMs"
          value={
            host.sims.length === 0
              ? 'none reported'
              : host.sims
                  .map(
                    (s) =>
                      `SIM ${s.slot}${s.slot === host.defaultSimSlot ? ' (default)' : ''}` +
                      (s.carrier ? `: ${s.carrier}` : ''),
                  )
                  .join(', ')
          }
        />
      </dl>
      <dl class="card">
        <Field label="Waiting" value={String(queue.value.waiting)} />
        <Field label="Queue paused" value={yesNo(queue.value.paused)} />
        <Field label="Next attempt" value={when(queue.value.nextAttemptAt)} />
        <Field label="Quiet hours" value={queue.value.quietHours ?? 'none'} />
      </dl>
    </div>
  );
}

/**
 * Every check with its status under its name for people; a check that fails or is degraded
 * with its fix ("Fix: ..."); an unknown one with why it is unknown (no "Fix:": there is nothing
 * to fix when, say, a simulated phone reports no battery).
 */
function CheckList({ checks }: { checks: Checks }) {
  return (
    <ul class="checks">
      {(Object.keys(checks) as CheckName[]).map((name) => {
        const c = checks[name];
        return (
          <li key={name}>
            <Status status={c.status} /> <strong>{CHECK_NAMES[name]}</strong>
            {c.status !== 'ok' && c.hint && <p class="hint">{c.status === 'unknown' ? c.hint : `Fix: ${c.hint}`}</p>}
          </li>
        );
      })}
    </ul>
  );
}

export function Overview({ call }: ViewProps) {
  const [diag, setDiag] = useState<Diagnostics>();
  const [host, setHost] = useState<HostInfo>();
  const [days, setDays] = useState<DayCounts[]>();
  const [error, setError] = useState<string>();

  usePoll(async () => {
    try {
      const [d, h, s] = await Promise.all([
        call<{ data: Diagnostics }>('GET', '/api/diagnostics'),
        call<{ data: HostInfo }>('GET', '/api/host/info'),
        call<{ data: { days: DayCounts[] } }>('GET', '/api/stats/daily?days=14'),
      ]);
      setDiag(d.data);
      setHost(h.data);
      setDays(s.data.days);
      setError(undefined);
    } catch (err) {
      setError(describe(err));
    }
  }, []);

  if (!diag || !host || !days)
    return (
      <section>
        <h1>Overview</h1>
        <ErrorLine text={error} />
        {!error && <p>Loading…</p>}
      </section>
    );
  return (
    <section>
      <h1>Overview</h1>
      <ErrorLine text={error} />
      <Cards diag={diag} host={host} />
      <h2>Sent and failed per day</h2>
      <DailyChart days={days} />
      <h2>Checks</h2>
      <CheckList checks={diag.checks} />
    </section>
  );
}
