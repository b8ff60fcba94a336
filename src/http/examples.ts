// The example answers the OpenAPI document shows, one per operation. Typed against the
// response schemas (route-docs.ts json()), so a field that changes fails the build; the
// lint test checks them against the generated document too.
import type * as z from 'zod';
import type { MessageRecord } from '../store/message-record.js';
import type {
  DiagnosticsResponseSchema,
  HostInfoResponseSchema,
  MessageResponseSchema,
  MessagesPageSchema,
  QueuedResponseSchema,
  SendResultSchema,
  StatsResponseSchema,
  DailyStatsResponseSchema,
} from './schemas.js';

type Example<T extends z.ZodType> = z.input<T>;

const record: MessageRecord = {
  id: 'msg_01m7ysbves8b8r2h46j3ekdy4v',
  to: '+1 555 123 4567',
  body: 'Your order has shipped.',
  segments: 1,
  billedSegments: 1,
  status: 'sent',
  reason: null,
  sourceIp: '192.168.1.20',
  origin: 'api',
  createdAt: '2026-11-21T10:10:24.210Z',
  updatedAt: '2026-11-21T10:10:24.398Z',
  encoding: 'gsm7',
  simSlot: 1,
  sendAt: null,
  expiresAt: null,
  tags: { order: '1042' },
};

const queued = (id: string, to: string): MessageRecord => ({
  ...record,
  id,
  to,
  body: 'Practice moved to 18:00',
  billedSegments: 0,
  status: 'queued',
  origin: 'queue',
  createdAt: '2026-11-22T20:00:00.000Z',
  updatedAt: '2026-11-22T20:00:00.000Z',
  sendAt: '2026-11-23T06:30:00.000Z',
  expiresAt: '2026-11-23T16:00:00.000Z',
  tags: {},
});

const counts = { accepted: 3, sent: 2, failed: 1, cancelled: 0, queued: 0, segments: 4, billedSegments: 3 };

export const sendExample: Example<typeof SendResultSchema> = {
  success: true,
  mode: 'real',
  smsSent: true,
  messageId: record.id,
  status: 'queued',
  segments: 1,
  simSlot: 1,
  encoding: 'gsm7',
};

export const queueExample: Example<typeof QueuedResponseSchema> = {
  success: true,
  data: [
    queued('msg_01m7z0a1b2c3d4e5f6g7h8j9k0', '+15551230001'),
    queued('msg_01m7z0a1b2c3d4e5f6g7h8j9k1', '+15551230002'),
  ],
};

export const listExample: Example<typeof MessagesPageSchema> = {
  success: true,
  data: [record],
  pagination: { limit: 2, offset: 0, total: 1, hasNext: false },
};

export const messageExample: Example<typeof MessageResponseSchema> = { success: true, data: record };

export const cancelledExample: Example<typeof MessageResponseSchema> = {
  success: true,
  data: { ...queued('msg_01m7z0a1b2c3d4e5f6g7h8j9k0', '+15551230001'), status: 'cancelled' },
};

export const statsExample: Example<typeof StatsResponseSchema> = {
  success: true,
  data: {
    timeZone: 'Europe/Berlin',
    today: { ...counts, date: '2026-11-21' },
    month: { ...counts, accepted: 40, sent: 38, failed: 2, segments: 51, billedSegments: 49, month: '2026-11' },
    allTime: { ...counts, accepted: 212, sent: 205, failed: 6, cancelled: 1, segments: 260, billedSegments: 252 },
  },
};

const zero = { accepted: 0, sent: 0, failed: 0, cancelled: 0, queued: 0, segments: 0, billedSegments: 0 };

export const dailyStatsExample: Example<typeof DailyStatsResponseSchema> = {
  success: true,
  data: {
    timeZone: 'Europe/Berlin',
    days: [
      { ...zero, date: '2026-11-19' },
      { ...counts, accepted: 5, sent: 5, segments: 5, billedSegments: 5, date: '2026-11-20' },
      { ...counts, date: '2026-11-21' },
    ],
  },
};

export const hostInfoExample: Example<typeof HostInfoResponseSchema> = {
  success: true,
  data: {
    phoneNumber: '+4915112345678',
    carrier: 'Telekom.de',
    networkType: 'lte',
    simState: 'ready',
    roaming: false,
    simCount: 2,
    sims: [
      { slot: 1, carrier: null, state: null },
      { slot: 2, carrier: null, state: null },
    ],
    defaultSimSlot: 1,
    device: { manufacturer: 'Google', model: 'Pixel 6a', androidVersion: '14' },
    counters: { ...statsExample.data, historySize: 212 },
    gateway: {
      version: '0.5.0',
      mode: 'real',
      simulation: 'none',
      smsEnabled: true,
      startedAt: '2026-11-21T08:00:00.000Z',
      uptimeSeconds: 8040,
      lanUrls: ['http://192.168.1.50:8080'],
    },
  },
};

const ok = <V>(value: V) => ({ status: 'ok' as const, value });

export const diagnosticsExample: Example<typeof DiagnosticsResponseSchema> = {
  success: true,
  data: {
    status: 'degraded',
    checkedAt: '2026-11-21T10:14:00.000Z',
    version: '0.5.0',
    mode: 'real',
    checks: {
      termuxApi: ok({
        appInstalled: true,
        probes: { telephony: 'ok', battery: 'ok', wifi: 'ok', props: 'ok', apiApp: 'ok' },
      }),
      sms: ok({
        enabled: true,
        mode: 'real',
        lastHandoffAt: '2026-11-21T10:10:24.398Z',
        lastHandoffOk: true,
        consecutiveFailures: 0,
        lastFailureReason: null,
        lastFailureAt: null,
      }),
      database: ok({
        sizeBytes: 417792,
        walBytes: 32992,
        historySize: 212,
        integrity: 'ok',
        integrityCheckedAt: '2026-11-21T10:00:00.000Z',
        lastWriteError: null,
      }),
      sendBudget: ok({ segmentsUsedLast60s: 1, budget: 60, nextSendAllowedAt: '2026-11-21T10:14:00.000Z' }),
      queue: ok({
        waiting: 0,
        paused: false,
        nextAttemptAt: null,
        oldestWaitingSince: null,
        consecutiveTimeouts: 0,
        queueRate: 30,
        queuedSegmentsLast60s: 0,
        quietHours: '22:00-07:00',
      }),
      androidSmsLimit: {
        ...ok({ androidDefaultLimit: 30, gatewayBudget: 60, segmentsUsedLast60s: 1 }),
        hint:
          'Android asks for confirmation past 30 segments a minute per app, and an unanswered prompt fails the ' +
          'send. Raise it from a computer: adb shell settings put global sms_outgoing_check_max_count 60',
      },
      battery: {
        status: 'degraded',
        value: { level: 18, charging: false, temperatureC: 31.4, health: 'GOOD', readAt: '2026-11-21T10:12:51.204Z' },
        hint: 'Keep the phone on its charger; a gateway in a drawer should never run on battery.',
      },
      wifi: ok({
        ssid: 'home-net',
        ip: '192.168.1.50',
        rssi: -58,
        linkSpeedMbps: 433,
        readAt: '2026-11-21T10:12:51.188Z',
      }),
      telephony: ok({
        simState: 'ready',
        carrier: 'Telekom.de',
        networkType: 'lte',
        roaming: false,
        simCount: 2,
        readAt: '2026-11-21T09:58:03.512Z',
      }),
      disk: ok({ freeBytes: 12884901888, freeMb: 12288 }),
      process: ok({ uptimeSeconds: 8040, rssMb: 61.2, heapUsedMb: 14.8, eventLoopLagMs: 0.4, nodeVersion: 'v24.11.1' }),
      apiKey: ok({ createdAt: '2026-11-01T09:00:00.000Z', ageDays: 20 }),
      webhooks: ok({ pending: 0, targets: [], inbox: null }),
      mqtt: ok({ enabled: false }),
      smtp: ok({ enabled: false }),
    },
  },
};
