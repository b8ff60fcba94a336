// Inbound MQTT sends, through the same queue intake as POST /api/messages (sms/enqueue.ts),
// so validation and idempotency are identical. `<prefix>/<id>/send` and the shared
// `<prefix>/send` carry the JSON body of POST /api/messages plus an optional `id` (the
// Idempotency-Key); a notify topic of a contact carries plain text for that contact. The
// returned promise resolves after the queue commit (the bridge acknowledges then). A
// request refused for what it is (invalid, too large, sending switched off, or carrying the
// retain flag: a retained request would be given again at every subscribe) is answered on
// `<prefix>/<id>/errors` with the error envelope (+ the `id`), acknowledged and never sent.
// One the gateway could not keep right now (storage_unavailable, queue_full, an internal
// error) rejects: no PUBACK, so the broker gives it again after the reconnect. A recipient
// on the opt-out list is recorded as failed (opted_out) like on POST /api/messages and
// answered with recipient_opted_out on the errors topic.
import type { Logger } from 'pino';
import * as z from 'zod';
import { errorBody, gatewayError, GatewayError, type ErrorCode } from '../core/errors.js';
import { slugOf, type Contact } from '../core/mqtt-settings.js';
import type { Enqueue } from '../sms/enqueue.js';
import type { QueueRequest } from '../sms/queue-request.js';
import type { QueueOutcome } from '../sms/outcomes.js';
import { QueueRequestSchema } from '../http/schemas.js';
import type { Topics } from './topics.js';

export const MAX_PAYLOAD_BYTES = 16 * 1024;
/** Refusals that say nothing about the request: it is given again later, not answered. */
const NOT_KEPT: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['storage_unavailable', 'queue_full']);
/** What the records show as the request's source address. */
export const MQTT_SOURCE = 'mqtt';

export const MqttSendSchema = QueueRequestSchema.extend({
  id: z
    .string()
    .regex(/^[\x20-\x7e]{1,128}$/, 'must be 1 to 128 printable ASCII characters')
    .optional()
    .describe('Idempotency-Key: a repeated id with the same request is not queued again'),
}).strict();

export interface IntakeDeps {
  enqueue: Pick<Enqueue, 'accept'>;
  topics: Topics;
  contacts: Contact[];
  publish: (topic: string, payload: string, opts: { qos: 0 | 1; retain: boolean }) => boolean;
  /** After a commit (the state's queue count changed). */
  onQueued?: () => void;
  logger?: Logger | undefined;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });
/** The payload as text; invalid UTF-8 is refused, never turned into U+FFFD and sent. */
function utf8(payload: Buffer): string {
  try {
    return strictUtf8.decode(payload);
  } catch {
    throw gatewayError('invalid_request', 'payloadNotUtf8');
  }
}

/** The request's `id` when the payload is a JSON object that has one (to name a refusal). */
function idOf(payload: Buffer): string | undefined {
  if (payload.length > MAX_PAYLOAD_BYTES) return undefined;
  try {
    const id = (JSON.parse(payload.toString('utf8')) as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The recipients a queue outcome records as failed because they opted out. */
const optedOutRecipients = (outcome: QueueOutcome): string[] =>
  outcome.kind === 'accepted' ? outcome.records.filter((r) => r.reason === 'opted_out').map((r) => r.to) : [];

const retainedRefused = () => gatewayError('retained_refused', 'retainFlag');

function describe(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((i) => `${['payload', ...i.path.map(String)].join('.')}: ${i.message}`)
    .join('; ');
}

export function createSendIntake(deps: IntakeDeps) {
  const answerError = (topic: string, err: GatewayError, id: string | undefined) => {
    const body = { ...errorBody(err), topic, ...(id !== undefined ? { id } : {}) };
    deps.publish(deps.topics.errors, JSON.stringify(body), { qos: 1, retain: false });
    deps.logger?.info({ topic, code: err.code, ...(id !== undefined ? { id } : {}) }, 'mqtt send refused');
  };

  /** The request and its id, or the error to answer with. */
  const parse = (topic: string, payload: Buffer): { req: QueueRequest; id: string | undefined } => {
    const level = deps.topics.notifySlug(topic);
    if (level !== undefined) {
      // The contact as written in SMS_GATEWAY_MQTT_CONTACTS (`Alice`, `Bob Smith`) or its slug
      // (`alice`, `bob_smith`, the discovery config's command topic): any case, one contact.
      const wanted = slugOf(level);
      const contact = deps.contacts.find((c) => c.slug === wanted);
      if (!contact) throw gatewayError('invalid_request', 'noContact', level);
      return { req: { to: contact.number, message: utf8(payload) }, id: undefined };
    }
    let json: unknown;
    try {
      json = JSON.parse(utf8(payload));
    } catch (err) {
      if (err instanceof GatewayError) throw err;
      throw gatewayError('invalid_request', 'payloadNotJson');
    }
    const parsed = MqttSendSchema.safeParse(json);
    if (!parsed.success) {
      const id = typeof (json as { id?: unknown } | null)?.id === 'string' ? (json as { id: string }).id : undefined;
      throw Object.assign(gatewayError('invalid_request', 'problem', describe(parsed.error)), { mqttId: id });
    }
    const { id, ...req } = parsed.data;
    return { req, id };
  };

  return {
    /** `retained`: the message carries the retain flag (refused, acknowledged, never queued). */
    async handle(topic: string, payload: Buffer, retained = false): Promise<void> {
      let id: string | undefined;
      try {
        if (retained) throw Object.assign(retainedRefused(), { mqttId: idOf(payload) });
        if (payload.length > MAX_PAYLOAD_BYTES)
          throw gatewayError('payload_too_large', 'mqttPayload', MAX_PAYLOAD_BYTES);
        const parsed = parse(topic, payload);
        id = parsed.id;
        const ctx = { origin: 'mqtt', sourceIp: MQTT_SOURCE, idempotencyKey: id } as const;
        const outcome = await deps.enqueue.accept(parsed.req, ctx);
        deps.onQueued?.();
        for (const number of optedOutRecipients(outcome))
          answerError(topic, gatewayError('recipient_opted_out', 'listed', number), id);
      } catch (err) {
        const mqttId = (err as { mqttId?: string }).mqttId ?? id;
        if (err instanceof GatewayError && !NOT_KEPT.has(err.code)) {
          answerError(topic, err, mqttId);
          return;
        }
        if (err instanceof GatewayError)
          deps.logger?.warn({ topic, code: err.code }, 'mqtt send not kept now; the broker gives it again');
        else deps.logger?.error({ err, topic }, 'mqtt send failed; the broker gives it again');
        throw err;
      }
    },
  };
}

export type SendIntake = ReturnType<typeof createSendIntake>;
