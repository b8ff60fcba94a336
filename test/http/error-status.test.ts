import t from 'tap';
import Fastify from 'fastify';
import { ERROR_CODES, GatewayError, type ErrorCode } from '../../src/core/errors.js';
import { STATUS_OF } from '../../src/http/error-status.js';
import { installErrorHandling } from '../../src/http/errors.js';
import { testApp } from '../helpers/test-app.js';

/** The error table of docs/api.md and the spec (the contract): each code's status, written out once more here. */
const CONTRACT: Record<ErrorCode, number> = {
  invalid_request: 400,
  message_too_long: 400,
  not_found: 404,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  send_rate_limited: 429,
  not_cancellable: 409,
  webhook_from_environment: 409,
  recipient_opted_out: 409,
  too_many_webhooks: 409,
  too_many_rules: 409,
  retained_refused: 400,
  send_failed: 502,
  sms_disabled: 503,
  storage_unavailable: 503,
  sender_busy: 503,
  queue_full: 503,
  inbox_disabled: 503,
  internal_error: 500,
};

t.test('every error code has its contract status in the one table, and nothing else is in it', async (t) => {
  t.same(Object.keys(STATUS_OF).sort(), [...ERROR_CODES].sort());
  for (const code of ERROR_CODES) t.equal(STATUS_OF[code], CONTRACT[code], code);
});

t.test('the root error handler answers every code with the table status and the envelope', async (t) => {
  const app = Fastify();
  installErrorHandling(app);
  app.get('/throw/:code', async (request) => {
    const { code } = request.params as { code: ErrorCode };
    throw new GatewayError(code, `refused: ${code}`, code === 'queue_full' ? { retryAfterSeconds: 60 } : {});
  });
  t.teardown(() => app.close());
  for (const code of ERROR_CODES) {
    const res = await app.inject({ url: `/throw/${code}` });
    t.equal(res.statusCode, STATUS_OF[code], code);
    const extra = code === 'queue_full' ? { retryAfterSeconds: 60 } : {};
    t.same(
      res.json(),
      { success: false, smsSent: false, error: { code, message: `refused: ${code}` }, ...extra },
      code,
    );
    t.equal(res.headers['retry-after'], code === 'queue_full' ? '60' : undefined, `${code}: Retry-After`);
  }
});

t.test('the OpenAPI document gives every error code it names the status of the table', async (t) => {
  const { get } = await testApp(t);
  const doc = (await get('/openapi.json')).json() as {
    paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
  };
  let named = 0;
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      for (const [status, { description }] of Object.entries(op.responses)) {
        for (const code of ERROR_CODES) {
          if (!new RegExp(`\\b${code}\\b`).test(description)) continue;
          named++;
          t.equal(Number(status), STATUS_OF[code], `${method.toUpperCase()} ${path} ${status} names ${code}`);
        }
      }
    }
  }
  t.ok(named > 20, `the document names codes (${named} times)`);
});
