// GET /health: the liveness probe. No key needed, but behind the local-network guard
// and the per-caller rate limit like every route. With a Basic credential (SMSGate's clients)
// it answers SMSGate's health instead (http/smsgate/basic-form.ts), 500 when that fails.
import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MODES, RUNTIME_SIMULATIONS, type RuntimeInfo } from '../../core/runtime.js';
import { json, JSON_CONTENT_TYPE, PUBLIC_ERRORS } from '../route-docs.js';
import type { RouteFile } from '../route-parts.js';
import { answeredBasicForm, type BasicFormParts } from '../smsgate/basic-form.js';
import { SmsgateErrorSchema } from '../smsgate/docs.js';
import { SmsgateHealthSchema } from '../smsgate/system-schemas.js';
import type { SmsgateHealth } from '../../status/smsgate-health.js';

export const HealthSchema = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    smsEnabled: z.boolean(),
    mode: z.enum(MODES),
    simulation: z.enum(RUNTIME_SIMULATIONS),
    testMode: z.boolean().describe('true in simulated mode'),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;

/** The seed's health, or SMSGate's to a Basic credential. */
const HealthAnswerSchema = z.union([HealthSchema, SmsgateHealthSchema]);

export function healthOf(runtime: RuntimeInfo): Health {
  return {
    status: 'ok',
    version: runtime.version,
    smsEnabled: runtime.smsEnabled,
    mode: runtime.mode,
    simulation: runtime.simulation,
    testMode: runtime.mode === 'simulated',
  };
}

/** SMSGate's form of /health: the key and its health. */
export interface SmsgateHealthForm extends BasicFormParts {
  health: () => SmsgateHealth;
}

const SMSGATE_FORM =
  "With `Authorization: Basic base64(<any user>:<API key>)` (SMSGate's clients) the answer is SMSGate's " +
  'health instead (pass, warn or fail, and its checks), 500 when it fails; a wrong key there is 401.';

export function healthRoutes(runtime: RuntimeInfo, smsgate?: SmsgateHealthForm): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/health',
      {
        schema: {
          operationId: 'getHealth',
          summary: 'Liveness probe (no key needed)',
          description: SMSGATE_FORM,
          tags: ['gateway'],
          security: [],
          response: {
            200: json("The gateway serves (with Basic: SMSGate's health, pass or warn).", HealthAnswerSchema, {
              status: 'ok',
              version: '0.5.0',
              smsEnabled: true,
              mode: 'real',
              simulation: 'none',
              testMode: false,
            }),
            401: json("Basic with a wrong key (SMSGate's form; WWW-Authenticate: Basic).", SmsgateErrorSchema),
            500: json("Basic only: SMSGate's health with status fail.", SmsgateHealthSchema),
            ...PUBLIC_ERRORS,
          },
        },
      },
      // Not async (no promise per request), and serialized by JSON.stringify: the gateway's
      // own answer, built typed by healthOf, needs no zod encoding (the contract tests check
      // it against the document like every answer).
      (request, reply) => {
        if (smsgate && answeredBasicForm(request, reply, smsgate, () => smsgateHealthAnswer(smsgate.health()))) return;
        reply.type(JSON_CONTENT_TYPE).serializer(JSON.stringify).send(healthOf(runtime));
      },
    );
  };
}

/** SMSGate answers a failing health with 500 (its app does). */
const smsgateHealthAnswer = (health: SmsgateHealth) => ({ status: health.status === 'fail' ? 500 : 200, body: health });

/** Registered by routes/index.ts with the parts it serves. */
export const routes: RouteFile = ({ runtime, apiKey, status }) =>
  healthRoutes(runtime, { apiKey: () => apiKey.current(), health: status.smsgateHealth });
