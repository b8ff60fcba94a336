// POST /api/receivers/alertmanager?to=… and POST /api/receivers/grafana?to=…: the alert
// receivers (docs/alerts.md). Behind the same guards as every /api route
// (local network, per-caller rate, bearer key: Alertmanager sends it with
// http_config.authorization, Grafana with the webhook's Authorization header). The payload
// is checked by its schema (http/receiver-schemas.ts: 400 naming the field), the intake
// (sms/alert-intake.ts) queues one SMS per recipient and answers 200 once committed; its
// refusals (sms_disabled, storage_unavailable, queue_full) are the queue route's 503s.
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type * as z from 'zod';
import type { AlertIntake } from '../../sms/alert-intake.js';
import { MAX_ALERT_RECIPIENTS, RETRY_WINDOW_MS } from '../../sms/alert-intake.js';
import type { AlertNotification } from '../../sms/alert-notification.js';
import { largerThan } from '../../core/error-messages.js';
import { callerAddress } from '../local-network.js';
import { bearerErrors, json } from '../route-docs.js';
import {
  AlertmanagerPayloadSchema,
  GrafanaPayloadSchema,
  notificationOf,
  ReceiverQuerySchema,
  ReceiverResponseSchema,
} from '../receiver-schemas.js';
import { createAlertIntake } from '../../sms/alert-intake.js';
import type { RouteFile } from '../route-parts.js';

/** The largest payload a receiver takes: a group of some hundred alerts (max_alerts keeps it smaller). */
export const RECEIVER_BODY_LIMIT = 512 * 1024;

const example: z.input<typeof ReceiverResponseSchema> = {
  success: true,
  data: {
    text: 'FIRING 3: HighLatency critical: p99 above 2s on api-1 (+2 more)',
    replay: false,
    queued: [{ id: 'msg_01m7ysbves8b8r2h46j3ekdy4v', to: '+4915112345678', contact: 'Alice', replay: false }],
    skipped: [
      {
        id: 'msg_01m7ysbvet0c1d2e3f4g5h6j7k',
        to: '+4915187654321',
        contact: null,
        replay: false,
        reason: 'opted_out',
      },
    ],
  },
};

const description = (sender: string) =>
  `Queues one SMS per recipient for ${sender}'s notification: status, count, the first alert's name, severity and ` +
  `summary, at most 2 segments (GSM-7 where the text allows). ` +
  "A retry of the same notification (same group key, status, alerts' fingerprints, start times and statuses) " +
  `within ${RETRY_WINDOW_MS / 60_000} minutes answers the first messages again ` +
  '(replay: true, with the text queued then) and queues nothing; ' +
  'after that, the same notification is a repeat and is sent again. A recipient on the opt-out list is recorded as ' +
  'failed (opted_out) and named in skipped.';

const errors = bearerErrors([400, 413, 415, 503], {
  400:
    `invalid_request: the payload is not the sender's (the message names the field, e.g. body.alerts.0.labels), ` +
    `or query.to names no recipient, an unknown contact or more than ${MAX_ALERT_RECIPIENTS}.`,
  413: `payload_too_large: the body is ${largerThan(RECEIVER_BODY_LIMIT)} (set max_alerts in the receiver).`,
  503:
    'sms_disabled, storage_unavailable, or queue_full (Retry-After), as POST /api/messages answers: nothing more ' +
    'queued; the sender retries and what was queued is not queued again.',
});

/** The two receivers: one route each, the same intake. */
const RECEIVERS = [
  {
    source: 'alertmanager',
    operationId: 'receiveAlertmanager',
    summary: "Alertmanager's webhook receiver: page by SMS",
    sender: 'Alertmanager (webhook_configs, version 4)',
    body: AlertmanagerPayloadSchema,
  },
  {
    source: 'grafana',
    operationId: 'receiveGrafana',
    summary: "Grafana's webhook contact point: page by SMS",
    sender: "Grafana's webhook contact point",
    body: GrafanaPayloadSchema,
  },
] as const;

/**
 * `to` as written in the URL: a `+` stays a `+` (form decoding, which the parsed query uses,
 * turns it into a space, and +4915... would become the national number 4915...). A repeated
 * `to` (?to=A&to=B) lists its recipients as commas do.
 */
export function recipientsAsWritten(url: string, parsed: string): string {
  const query = url.split('?', 2)[1] ?? '';
  const raw = query.split('&').filter((part) => part.startsWith('to='));
  if (raw.length === 0) return parsed;
  try {
    return raw.map((part) => decodeURIComponent(part.slice(3))).join(',');
  } catch {
    return parsed;
  }
}

/** A repeated `to` arrives as an array: one comma-separated string before the schema checks it. */
const joinRepeatedTo = async (request: { query: unknown }) => {
  const query = request.query as { to?: unknown };
  if (Array.isArray(query.to)) query.to = query.to.join(',');
};

export function receiverRoutes(intake: AlertIntake): FastifyPluginAsyncZod {
  return async (app) => {
    const answer = (n: AlertNotification, request: { url: string; query: { to: string } }, sourceIp: string) => ({
      success: true as const,
      data: intake.receive(n, recipientsAsWritten(request.url, request.query.to), sourceIp),
    });

    for (const r of RECEIVERS) {
      app.post(
        `/api/receivers/${r.source}`,
        {
          bodyLimit: RECEIVER_BODY_LIMIT,
          preValidation: joinRepeatedTo,
          schema: {
            operationId: r.operationId,
            summary: r.summary,
            description: description(r.sender),
            tags: ['sms'],
            querystring: ReceiverQuerySchema,
            body: r.body,
            response: {
              200: json(
                'Queued (or, for a retry, queued before): the messages per recipient.',
                ReceiverResponseSchema,
                example,
              ),
              ...errors,
            },
          },
        },
        async (request) => answer(notificationOf(r.source, request.body), request, callerAddress(request)),
      );
    }
  };
}

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ sending, clock, config, logger }) => {
  const { enqueue, messages: store } = sending;
  return receiverRoutes(createAlertIntake({ enqueue, store, clock, contacts: () => config.contacts, logger }));
};
