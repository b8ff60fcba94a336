// 1000 realistic rows of history for the read phases, written through the project's own
// composition root (server/compose.ts) on the gateway's database before it starts.
import { join } from 'node:path';
import { composeGateway } from '../../src/server/compose.js';
import { systemClock } from '../../src/core/clock.js';
import { loadConfig } from '../../src/core/config.js';
import { createApiKeyFile } from '../../src/core/keys.js';
import { newMessageId } from '../../src/core/ids.js';
import { chooseTimeZone, createCalendar } from '../../src/core/time-zone.js';
import { VERSION } from '../../src/core/package-root.js';
import { openDatabase } from '../../src/store/database.js';
import { transaction } from '../../src/store/transaction.js';
import type { Reason } from '../../src/store/message-record.js';
import { countSegments } from '../../src/sms/segments.js';
import { requestHash } from '../../src/sms/idempotency.js';
import { createProbes } from '../../src/device/probes.js';
import { createSimulatedSender } from '../../src/sms/senders.js';

const BODIES = [
  'Your verification code is 482913. It expires in 10 minutes.',
  'Reminder: your appointment with Dr. Meyer is tomorrow at 09:30, Hauptstr. 12. Reply STOP to opt out.',
  'Server backup finished OK (412 GB, 37 min).',
  'ALERT: disk /var is 91% full on nas-01 since 03:12.',
  'Paket 📦 wird heute zwischen 14–16 Uhr zugestellt. Sendungsnummer 00340434161094042557.',
  'Hi! Dinner at 8 still on? I can pick up the wine on the way, just tell me red or white.',
  'Your order #20931 has shipped and should arrive on Thursday. Track it at https://example.com/t/20931 . Thanks for shopping with us, and have a nice day! Questions? Reply to this message any time.',
  'Motion detected at the front door camera at 22:41. Open the app to see the clip.',
  'Temperature in the greenhouse dropped to 3.5 °C; heater switched on.',
  'Zahlung über 49,90 € eingegangen. Vielen Dank! Ihre Rechnung Nr. 2024-1187 ist damit beglichen.',
];
const FAILURE_REASONS: Reason[] = ['timeout', 'permission_denied', 'termux_api_error'];

export async function fillHistory(home: string, rows: number, bodies: readonly string[] = BODIES): Promise<void> {
  const db = openDatabase(join(home, 'gateway.db'));
  const calendar = createCalendar(chooseTimeZone([process.env.TZ]));
  const clock = systemClock;
  const env = { PATH: '', SMS_GATEWAY_HOME: home };
  const gateway = await composeGateway({
    config: loadConfig(env),
    db,
    clock,
    runtime: { version: VERSION, mode: 'simulated', simulation: 'success', smsEnabled: true, startedAt: clock.now() },
    probes: createProbes({ clock, env }),
    apiKey: createApiKeyFile(home),
    webhookSecret: () => '',
    env,
    bootId: null,
    ports: { sender: createSimulatedSender('success'), calendar: () => calendar },
  });
  try {
    const store = gateway.sending.messages;
    const now = Date.now();
    // Spread over the last 30 days, the newest 10 minutes ago: none counts against the
    // send budget (a rolling 60 s) when the gateway rebuilds it at start.
    const span = 30 * 86_400_000;
    const fill = transaction(db, () => {
      for (let i = 0; i < rows; i++) {
        const createdAt = now - 600_000 - Math.round(((rows - 1 - i) / rows) * span) - (i % 7) * 1000;
        const body = bodies[i % bodies.length]!;
        const seg = countSegments(body);
        const to = `+49 151 ${String(2_000_000 + ((i * 7919) % 7_000_000)).padStart(8, '0')}`;
        const sendTo = to.replace(/[ \-.()]/g, '');
        const simSlot = i % 7 === 0 ? 2 : 1;
        const idempotencyKey = i % 3 === 0 ? `order-${i}` : null;
        const id = newMessageId(createdAt);
        store.insertQueued({
          id,
          to,
          sendTo,
          body,
          segments: seg.segments,
          encoding: seg.encoding,
          simSlot,
          sourceIp: `192.168.1.${20 + (i % 5)}`,
          createdAt,
          statsDay: calendar.dayOf(createdAt),
          idempotencyKey,
          requestHash: idempotencyKey ? requestHash({ to, message: body }) : null,
        });
        const failed = i % 20 === 0;
        store.settle(id, {
          status: failed ? 'failed' : 'sent',
          reason: failed ? FAILURE_REASONS[(i / 20) % FAILURE_REASONS.length]! : null,
          billedSegments: failed ? 0 : seg.segments,
          at: createdAt + 2000 + (i % 5) * 1000,
          handedOff: !failed,
          smsStoreId: failed ? null : 5000 + i,
        });
      }
    });
    fill();
    const count = store.count();
    if (count !== rows) throw new Error(`history holds ${count} messages, expected ${rows}`);
  } finally {
    await gateway.stop();
    db.close();
  }
}
