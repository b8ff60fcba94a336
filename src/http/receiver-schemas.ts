// The alert receivers' payloads (POST /api/receivers/alertmanager and /grafana), as the
// senders' own sources define them, and their reading as an sms/alert-notification.ts:
// - Alertmanager's webhook, version 4: notify/webhook/webhook.go `Message` (version,
//   groupKey, truncatedAlerts) around template/template.go `Data` and `Alert`
//   (prometheus/alertmanager 68fb2d5759b3a92c0bb2a1a13d4ef7ff5b06256d; docs/configuration.md
//   "<webhook_config>" shows the same shape).
// - Grafana's webhook contact point, version 1: receivers/webhook/v1/webhook.go
//   `webhookMessage` around templates/template_data.go `ExtendedData` and `ExtendedAlert`
//   (grafana/alerting 783ce041445f48a1c5d7ec785becb54d57ae7918).
// Lenient where the senders are (unknown fields pass, the fields the SMS does not need are
// optional and may be null), strict where the SMS or the idempotency key needs a field
// (status, groupKey, alerts[i].status, labels, fingerprint, startsAt): a payload without
// one is 400 invalid_request naming it (e.g. body.alerts.0.labels).
import * as z from 'zod';
import type { AlertNotification } from '../sms/alert-notification.js';

const KvSchema = z.record(z.string(), z.string());
const StatusSchema = z.enum(['firing', 'resolved']).describe('firing while any alert of the group fires');
const optionalKv = (what: string) => KvSchema.nullish().describe(what);
const optionalText = (what: string) => z.string().nullish().describe(what);

/** The fields both senders put on every alert (Alertmanager's `Alert`). */
const alertShape = {
  status: StatusSchema,
  labels: KvSchema.describe('alertname names the alert in the SMS, severity follows it'),
  annotations: optionalKv('summary (else description) is the SMS text'),
  startsAt: z.string().min(1).describe('RFC 3339: part of the idempotency key'),
  endsAt: optionalText('RFC 3339; 0001-01-01T00:00:00Z while unknown'),
  generatorURL: optionalText('the source of the alert'),
  fingerprint: z.string().min(1).describe("the alert's identity: part of the idempotency key"),
};

/** The fields both senders put on the notification (Alertmanager's `Data` and the webhook's own). */
const notificationShape = {
  receiver: optionalText('the receiver (contact point) name'),
  status: StatusSchema,
  groupLabels: optionalKv('the labels the group is made by'),
  commonLabels: optionalKv('the labels every alert has'),
  commonAnnotations: optionalKv('the annotations every alert has'),
  externalURL: optionalText("a link back to the sender's UI"),
  groupKey: z.string().min(1).describe("the group's key: part of the idempotency key"),
  truncatedAlerts: z
    .number()
    .int()
    .min(0)
    .nullish()
    .describe('how many alerts max_alerts left out: counted in the SMS'),
};

export const AlertmanagerAlertSchema = z.looseObject(alertShape).meta({ id: 'AlertmanagerAlert' });

export const AlertmanagerPayloadSchema = z
  .looseObject({
    version: z.string().describe('"4"'),
    ...notificationShape,
    routeLabels: optionalKv('the labels of the matching route (Alertmanager 0.29 and later)'),
    notification_reason: optionalText('why the notification was sent (newer Alertmanager versions)'),
    alerts: z.array(AlertmanagerAlertSchema).min(1).describe('at least one'),
  })
  .meta({
    id: 'AlertmanagerPayload',
    description: "Alertmanager's webhook payload (version 4); unknown fields are accepted",
  });

export const GrafanaAlertSchema = z
  .looseObject({
    ...alertShape,
    silenceURL: optionalText('a link that silences the alert'),
    dashboardURL: optionalText('the dashboard of the alert rule'),
    panelURL: optionalText('the panel of the alert rule'),
    ruleUID: optionalText("the alert rule's uid"),
    values: z.record(z.string(), z.number().nullable()).nullish().describe("the rule's query values"),
    valueString: optionalText('the values as text'),
    imageURL: optionalText('a screenshot of the panel'),
    orgId: z.number().int().nullish().describe('the organization'),
  })
  .meta({ id: 'GrafanaAlert' });

export const GrafanaPayloadSchema = z
  .looseObject({
    version: z.string().describe('"1"'),
    ...notificationShape,
    orgId: z.number().int().nullish().describe('the organization'),
    title: optionalText("the contact point's title template, rendered"),
    state: z.string().nullish().describe('alerting or ok'),
    message: optionalText("the contact point's message template, rendered (not used: the SMS is made from the alerts)"),
    appVersion: optionalText("Grafana's version"),
    alerts: z.array(GrafanaAlertSchema).min(1).describe('at least one'),
  })
  .meta({
    id: 'GrafanaPayload',
    description: "Grafana's webhook contact point payload (version 1); unknown fields are accepted",
  });

type Payload = z.infer<typeof AlertmanagerPayloadSchema> | z.infer<typeof GrafanaPayloadSchema>;

/** The notification as the SMS and the idempotency key read it. */
export function notificationOf(source: AlertNotification['source'], p: Payload): AlertNotification {
  return {
    source,
    status: p.status,
    groupKey: p.groupKey,
    truncated: p.truncatedAlerts ?? 0,
    alerts: p.alerts.map((a) => ({
      status: a.status,
      labels: a.labels,
      annotations: a.annotations ?? {},
      fingerprint: a.fingerprint,
      startsAt: a.startsAt,
    })),
  };
}

export const ReceiverQuerySchema = z
  .object({
    to: z
      .string()
      .min(1)
      .describe(
        'Recipients: numbers or contact names (SMS_GATEWAY_CONTACTS), comma-separated (or to repeated), at most 10; ' +
          'the same number twice gets one SMS. A + may be written as is or as %2B',
      ),
  })
  .strict();

const Recipient = {
  id: z.string().describe('the message record (GET /api/messages/{id})'),
  to: z.string().describe('the number, as the history shows it'),
  contact: z.string().nullable().describe('the contact name it was given by, or null for a number'),
  replay: z.boolean().describe('true: queued by an earlier call of this notification (a retry), nothing new for it'),
};

export const ReceiverResponseSchema = z.object({
  success: z.literal(true),
  data: z.object({
    text: z
      .string()
      .describe(
        'the SMS queued by this call, the same for every recipient; for a replay, the text the first call queued ' +
          '(a retry whose text changed sends nothing new)',
      ),
    replay: z.boolean().describe('true when nothing new was queued: every message named is one an earlier call queued'),
    queued: z
      .array(z.object(Recipient))
      .describe(
        'one queued message per recipient (a retry of the notification: the first one again, nothing queued twice)',
      ),
    skipped: z
      .array(z.object({ ...Recipient, reason: z.literal('opted_out') }))
      .describe('recipients on the opt-out list: recorded as failed with reason opted_out, never sent'),
  }),
});
