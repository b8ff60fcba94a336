// The alert SMS (src/sms/alert-text.ts): the most important words first, exact texts for the
// usual shapes, GSM-7 stand-ins only when the whole text then is GSM-7 (no letter lost),
// shortening that keeps status, count, name and "(+N more)", and at most 2 segments for
// any input (a property test over arbitrary strings, emoji and lone surrogates included).
import t from 'tap';
import fc from 'fast-check';
import { alertText } from '../../src/sms/alert-text.js';
import type { AlertItem, AlertNotification } from '../../src/sms/alert-notification.js';
import { countSegments } from '../../src/sms/segments.js';
import { gsmWhereAllowed } from '../../src/sms/gsm-stand-ins.js';

const alert = (
  labels: Record<string, string>,
  annotations: Record<string, string> = {},
  status: AlertItem['status'] = 'firing',
): AlertItem => ({
  status,
  labels,
  annotations,
  fingerprint: 'f0',
  startsAt: '2026-11-21T10:00:00Z',
});
const notification = (alerts: AlertItem[], over: Partial<AlertNotification> = {}): AlertNotification => ({
  source: 'alertmanager',
  status: alerts.some((a) => a.status === 'firing') ? 'firing' : 'resolved',
  groupKey: '{}:{}',
  alerts,
  truncated: 0,
  ...over,
});

t.test('the usual shapes', async (t) => {
  const latency = alert(
    { alertname: 'HighLatency', severity: 'critical' },
    { summary: 'p99 above 2s on api-1', description: 'long words' },
  );
  t.equal(alertText(notification([latency])), 'FIRING: HighLatency critical: p99 above 2s on api-1');
  t.equal(
    alertText(notification([latency, latency, latency])),
    'FIRING 3: HighLatency critical: p99 above 2s on api-1 (+2 more)',
  );
  t.equal(
    alertText(notification([{ ...latency, status: 'resolved' }])),
    'RESOLVED: HighLatency critical: p99 above 2s on api-1',
  );
  t.equal(
    alertText(notification([alert({ alertname: 'DiskFull' }, { description: 'only a description' })])),
    'FIRING: DiskFull: only a description',
  );
  t.equal(alertText(notification([alert({ job: 'x' })])), 'FIRING: alert', 'no name, no severity, no summary');
  t.equal(
    alertText(notification([latency], { truncated: 4 })),
    'FIRING 5: HighLatency critical: p99 above 2s on api-1 (+4 more)',
  );
  t.equal(
    alertText(notification([alert({ alertname: 'A' }, { summary: 'two\nlines\t and  spaces ' })])),
    'FIRING: A: two lines and spaces',
  );
});

t.test('GSM-7 stand-ins for typographic characters, only when the whole text then is GSM-7', async (t) => {
  const typographic = alert(
    { alertname: 'Backup' },
    { summary: '“nightly” backup’s run – failed… at\u00a003:00 — again' },
  );
  const text = alertText(notification([typographic]));
  t.equal(text, 'FIRING: Backup: "nightly" backup\'s run - failed... at 03:00 - again');
  t.equal(countSegments(text).encoding, 'gsm7');
  const cyrillic = alert({ alertname: 'Диск' }, { summary: '“полон” – 99%' });
  t.equal(
    alertText(notification([cyrillic])),
    'FIRING: Диск: “полон” – 99%',
    'a letter without a stand-in keeps the text UCS-2, as written',
  );
  t.equal(gsmWhereAllowed('Zürich – ok'), 'Zürich - ok', 'GSM letters with accents stay');
  t.equal(gsmWhereAllowed('Łódź – ok'), 'Łódź – ok');
});

t.test('shortened to 2 segments: the summary first, then the name; status, count and tail stay', async (t) => {
  const long = alert({ alertname: 'Queue', severity: 'warning' }, { summary: `backlog ${'y'.repeat(400)}` });
  const text = alertText(notification([long, long]));
  t.match(text, /^FIRING 2: Queue warning: backlog y+\.\.\. \(\+1 more\)$/);
  t.equal(countSegments(text).segments, 2);
  t.equal(countSegments(text).units, 306, 'as long as 2 GSM-7 segments take');
  const ucs2 = alertText(notification([alert({ alertname: 'Очередь' }, { summary: 'ж'.repeat(400) })]));
  t.match(ucs2, /^FIRING: Очередь: ж+…$/);
  t.equal(countSegments(ucs2).units, 134, 'as long as 2 UCS-2 segments take');
  const hugeName = alertText(
    notification([alert({ alertname: 'N'.repeat(500) }, { summary: 'lost' })], { truncated: 100 }),
  );
  t.match(hugeName, /^FIRING 101: N+\.\.\. \(\+100 more\)$/);
  t.equal(countSegments(hugeName).segments, 2);
  const emoji = alertText(notification([alert({ alertname: 'Fire' }, { summary: '🔥'.repeat(200) })]));
  t.ok(emoji.isWellFormed(), 'never a surrogate pair cut in half');
  t.equal(countSegments(emoji).segments, 2);
});

const anyText = fc.oneof(
  fc.string({ maxLength: 600 }),
  fc.string({ unit: 'binary', maxLength: 400 }),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
);
const anyAlert = fc.record({
  status: fc.constantFrom('firing' as const, 'resolved' as const),
  labels: fc.record({ alertname: anyText, severity: anyText }, { requiredKeys: [] }),
  annotations: fc.record({ summary: anyText, description: anyText }, { requiredKeys: [] }),
  fingerprint: fc.constant('f'),
  startsAt: fc.constant('s'),
});

t.test('property: any notification gives one well-formed, visible SMS of at most 2 segments', async () => {
  fc.assert(
    fc.property(
      fc.array(anyAlert, { minLength: 1, maxLength: 120 }),
      fc.constantFrom('firing' as const, 'resolved' as const),
      fc.nat({ max: 1_000_000 }),
      (alerts, status, truncated) => {
        const text = alertText({ source: 'grafana', status, groupKey: 'g', alerts, truncated });
        const seg = countSegments(text);
        if (seg.segments < 1 || seg.segments > 2) throw new Error(`${seg.segments} segments: ${JSON.stringify(text)}`);
        if (!text.isWellFormed()) throw new Error(`not well-formed: ${JSON.stringify(text)}`);
        if (!text.startsWith(status === 'firing' ? 'FIRING' : 'RESOLVED'))
          throw new Error(`the status is not first: ${JSON.stringify(text)}`);
        const shown = alerts.filter((a) => a.status === status).length || alerts.length;
        const count = shown + truncated;
        if (count > 1 && !text.includes(`+${count - 1} more`))
          throw new Error(`the count is missing: ${JSON.stringify(text)}`);
      },
    ),
    { numRuns: 500 },
  );
});
