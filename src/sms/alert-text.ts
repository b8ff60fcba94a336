// One SMS for one alert notification (Alertmanager's or Grafana's, as sms/alert-notification.ts
// gives it), the most important words first for a phone's lock screen:
//   FIRING 3: HighLatency critical: p99 above 2s on api-1 (+2 more)
//   RESOLVED: HighLatency critical: p99 above 2s on api-1
// status, how many alerts (when more than one), the first alert's name and severity, its
// summary (else its description), and how many more there are. Always at most 2 segments:
// the summary is shortened first (with an ellipsis), then the name; the status, count and
// the "(+N more)" tail always stay. GSM-7 where stand-ins for typographic characters make
// the whole text GSM-7 (sms/gsm-stand-ins.ts); otherwise UCS-2 with every letter as written.
// The shortening itself is the one of sms/short-text.ts (the e-mail intake's too).
import type { AlertNotification } from './alert-notification.js';
import { fitsIn, gsmIfPossible, shortened as shortenedIn, tidy } from './short-text.js';

/** The most segments an alert's SMS takes (306 GSM-7 characters, 134 UCS-2 code units). */
export const ALERT_SEGMENTS = 2;

const fits = (text: string) => fitsIn(text, ALERT_SEGMENTS);

interface Parts {
  /** `FIRING 3: ` */
  header: string;
  /** `HighLatency critical` */
  head: string;
  /** the summary or description, maybe empty */
  summary: string;
  /** ` (+2 more)`, maybe empty */
  tail: string;
}

function partsOf(n: AlertNotification): Parts {
  const matching = n.alerts.filter((a) => a.status === n.status);
  const shown = matching.length > 0 ? matching : n.alerts;
  const others = n.alerts.length - shown.length;
  const count = shown.length + n.truncated;
  const first = shown[0];
  const name = tidy(first?.labels.alertname) || 'alert';
  const severity = tidy(first?.labels.severity);
  const more = count - 1;
  const otherNote = others > 0 ? `${others} ${n.status === 'firing' ? 'resolved' : 'firing'}` : '';
  const tailParts = [more > 0 ? `+${more} more` : '', otherNote].filter((p) => p !== '');
  return {
    header: `${n.status === 'firing' ? 'FIRING' : 'RESOLVED'}${count > 1 ? ` ${count}` : ''}: `,
    head: severity ? `${name} ${severity}` : name,
    summary: tidy(first?.annotations.summary) || tidy(first?.annotations.description),
    tail: tailParts.length > 0 ? ` (${tailParts.join(', ')})` : '',
  };
}

/** The parts with GSM-7 stand-ins when that makes all of them GSM-7, else as written (the header and tail are). */
function encoded(p: Parts): { parts: Parts; ellipsis: string } {
  const { texts, ellipsis } = gsmIfPossible([p.head, p.summary]);
  return { parts: { header: p.header, head: texts[0]!, summary: texts[1]!, tail: p.tail }, ellipsis };
}

function shortened(text: string, ellipsis: string, wrap: (part: string) => string) {
  return shortenedIn(text, ellipsis, wrap, ALERT_SEGMENTS);
}

/** The SMS for a notification: at most 2 segments, whatever the payload holds. */
export function alertText(n: AlertNotification): string {
  const { parts, ellipsis } = encoded(partsOf(n));
  const { header, head, summary, tail } = parts;
  const withSummary = (s: string) => `${header}${head}: ${s}${tail}`;
  if (summary !== '' && fits(withSummary(summary))) return withSummary(summary);
  const short = summary === '' ? undefined : shortened(summary, ellipsis, withSummary);
  if (short !== undefined) return short;
  const withHead = (h: string) => `${header}${h}${tail}`;
  if (fits(withHead(head))) return withHead(head);
  return shortened(head, ellipsis, withHead) ?? `${header.trimEnd()}${tail}`;
}
