// Sent and failed per day as SVG bars drawn from the numbers (attributes only, no inline
// style): one pair of bars per day, the day of the month under each pair.
export interface DayCounts {
  date: string;
  sent: number;
  failed: number;
}

const W = 560;
const H = 180;
const PAD_BOTTOM = 22;
const PAD_TOP = 14;

export function DailyChart({ days }: { days: DayCounts[] }) {
  const max = Math.max(1, ...days.map((d) => Math.max(d.sent, d.failed)));
  const slot = W / Math.max(1, days.length);
  const bar = Math.max(2, slot / 2 - 3);
  const scale = (n: number) => ((H - PAD_BOTTOM - PAD_TOP) * n) / max;
  const sent = days.reduce((a, d) => a + d.sent, 0);
  const failed = days.reduce((a, d) => a + d.failed, 0);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`Sent and failed per day for ${days.length} days: ${sent} sent, ${failed} failed in all`}
      >
        <line x1="0" x2={W} y1={H - PAD_BOTTOM} y2={H - PAD_BOTTOM} class="axis" />
        <text x="2" y="11" class="label">{`max ${max}`}</text>
        {days.map((d, i) => {
          const x = i * slot + 2;
          const hs = scale(d.sent);
          const hf = scale(d.failed);
          return (
            <g key={d.date}>
              <title>{`${d.date}: ${d.sent} sent, ${d.failed} failed`}</title>
              <rect x={x} y={H - PAD_BOTTOM - hs} width={bar} height={hs} class="bar-sent" />
              <rect x={x + bar + 1} y={H - PAD_BOTTOM - hf} width={bar} height={hf} class="bar-failed" />
              <text x={x + bar} y={H - 6} class="label" text-anchor="middle">
                {d.date.slice(8)}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption>
        <span class="key-sent">■</span> sent ({sent}) <span class="key-failed">■</span> failed ({failed}), last{' '}
        {days.length} days
      </figcaption>
    </figure>
  );
}
