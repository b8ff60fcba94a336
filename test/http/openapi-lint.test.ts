// GET /openapi.json as integrators get it: Redocly's recommended rules find no error and
// no warning (examples are checked against their schemas too), and the facts the linter
// cannot know hold: who needs the key, typed query parameters, the Idempotency-Key and
// Retry-After headers, an operationId and an example per operation, only real statuses.
import t from 'tap';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { testApp } from '../helpers/test-app.js';

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: unknown[];
  parameters?: {
    name: string;
    in: string;
    schema: { type?: string; minimum?: number; maximum?: number; default?: unknown };
  }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
  responses: Record<
    string,
    {
      description: string;
      headers?: Record<string, unknown>;
      content?: Record<string, { schema: unknown; example?: unknown }>;
    }
  >;
}
type Doc = {
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  paths: Record<string, Record<string, Operation>>;
};

async function documentOf(t: Parameters<typeof testApp>[0]) {
  const { get } = await testApp(t);
  const res = await get('/openapi.json');
  t.equal(res.statusCode, 200);
  return { text: res.body, doc: res.json() as Doc };
}

const operations = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })),
  );

t.test("Redocly's recommended rules: no error, no warning", async (t) => {
  const { text } = await documentOf(t);
  // Redocly CLI 2's recommended set warns on `required` names a schema does not define.
  const config = await createConfig({
    extends: ['recommended'],
    rules: { 'no-required-schema-properties-undefined': 'warn' },
  });
  const problems = await lintFromString({ source: text, absoluteRef: 'openapi.json', config });
  const lines = problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? '?'}`);
  t.same(
    problems.filter((p) => p.severity === 'error').map((p) => p.ruleId),
    [],
    `no errors:\n${lines.join('\n')}`,
  );
  t.same(lines, [], 'no warnings either');
});

t.test('every route, with its own id, summary, tag, example and key requirement', async (t) => {
  const { doc } = await documentOf(t);
  const ops = operations(doc);
  // Routes added later get every check below; these must be there.
  const keys = ops.map((o) => o.key);
  for (const expected of [
    'DELETE /api/messages/{id}',
    'GET /api/diagnostics',
    'GET /api/host/info',
    'GET /api/messages',
    'GET /api/messages/{id}',
    'GET /api/stats',
    'GET /api/stats/daily',
    'GET /health',
    'GET /metrics',
    'GET /openapi.json',
    'POST /api/messages',
    'POST /api/sms/send',
    'POST /api/key/rotate',
  ]) {
    t.ok(keys.includes(expected), expected);
  }
  const ids = ops.map((o) => o.op.operationId);
  t.equal(new Set(ids).size, ops.length, 'operationIds are unique');
  t.match(doc.servers?.[0], { url: 'http://{host}:8080', variables: { host: { default: String } } });
  for (const { key, op } of ops) {
    t.match(op.operationId, /^[a-z][A-Za-z]+$/, `${key}: operationId`);
    t.ok(op.summary && op.tags?.length, `${key}: summary and tag`);
    const examples = Object.values(op.responses).flatMap((r) => Object.values(r.content ?? {}).map((m) => m.example));
    t.ok(
      examples.some((e) => e !== undefined),
      `${key}: an example answer`,
    );
    for (const [status, answer] of Object.entries(op.responses)) {
      t.not(answer.description, 'Default Response', `${key} ${status}: described`);
      // GET /metrics answers 200 in the Prometheus text format; every other body is JSON.
      const media = key === 'GET /metrics' && status === '200' ? 'text/plain' : 'application/json';
      // 204, and SMSGate's bodiless 202 (POST /inbox/refresh), carry no body.
      const bodiless = status === '204' || (status === '202' && op.tags?.includes('smsgate') && !answer.content);
      if (!bodiless) t.ok(answer.content?.[media]?.schema, `${key} ${status}: a ${media} body`);
    }
    const statuses = Object.keys(op.responses);
    t.ok(statuses.includes('403') && statuses.includes('429'), `${key}: the guard and the rate limit`);
    t.ok(op.responses['429']?.headers?.['Retry-After'], `${key}: 429 says Retry-After`);
    if (key === 'GET /health') {
      t.same(op.security, [], '/health needs no key');
      // 401 only to a Basic credential with a wrong key (SMSGate's form of /health).
      t.ok(statuses.includes('401'), '/health answers 401 to a wrong Basic key only');
    } else if (op.tags?.includes('smsgate')) {
      t.same(op.security, [{ basic: [] }, { bearer: [] }], `${key}: SMSGate's routes take Basic or Bearer`);
      t.ok(statuses.includes('401'), `${key}: 401`);
    } else {
      t.equal(op.security, undefined, `${key}: the document's bearer requirement applies`);
      t.ok(statuses.includes('401'), `${key}: 401`);
    }
  }
});

t.test('statuses: only those each route really answers', async (t) => {
  const { doc } = await documentOf(t);
  const statuses = Object.fromEntries(operations(doc).map(({ key, op }) => [key, Object.keys(op.responses).join(' ')]));
  const expected: Record<string, string> = {
    'GET /health': '200 401 403 429 500',
    'GET /openapi.json': '200 401 403 429 500',
    'POST /api/sms/send': '200 400 401 403 409 413 415 429 500 502 503',
    'POST /api/messages': '202 400 401 403 413 415 429 500 503',
    'GET /api/messages': '200 400 401 403 429 500',
    'GET /api/messages/{id}': '200 400 401 403 404 429 500',
    'DELETE /api/messages/{id}': '200 400 401 403 404 409 429 500 503',
    'GET /api/stats': '200 401 403 429 500',
    'GET /api/host/info': '200 401 403 429 500',
    'GET /api/diagnostics': '200 401 403 429 500',
    'GET /api/inbox': '200 400 401 403 429 500 503',
    'GET /api/webhooks': '200 401 403 429 500',
    'POST /api/webhooks': '200 201 400 401 403 409 413 415 429 500 503',
    'DELETE /api/webhooks/{id}': '204 400 401 403 404 409 429 500 503',
    'POST /api/webhooks/test': '200 401 403 429 500',
    'GET /metrics': '200 401 403 429 500',
    'GET /api/stats/daily': '200 400 401 403 429 500',
    'POST /api/key/rotate': '200 401 403 429 500 503',
    'GET /api/opt-outs': '200 400 401 403 429 500',
    'POST /api/opt-outs': '200 201 400 401 403 413 415 429 500 503',
    'DELETE /api/opt-outs/{number}': '204 400 401 403 404 429 500 503',
  };
  for (const [key, want] of Object.entries(expected)) t.equal(statuses[key], want, key);
  const send = doc.paths['/api/sms/send']!.post!;
  t.ok(send.responses['503']!.headers?.['Retry-After'], 'sender_busy sends Retry-After');
  t.notOk(send.responses['400']!.headers, 'a 400 has no Retry-After');
  t.notOk(doc.paths['/api/inbox']!.get!.responses['503']!.headers, 'inbox_disabled sends no Retry-After');
  for (const [path, method] of [
    ['/api/messages/{id}', 'delete'],
    ['/api/webhooks', 'post'],
    ['/api/webhooks/{id}', 'delete'],
    ['/api/opt-outs', 'post'],
    ['/api/opt-outs/{number}', 'delete'],
  ] as const) {
    t.notOk(
      doc.paths[path]![method]!.responses['503']!.headers,
      `${method} ${path}: storage_unavailable sends no Retry-After`,
    );
  }
  const declared = new Set(((doc as { tags?: { name: string }[] }).tags ?? []).map((x) => x.name));
  for (const { key, op } of operations(doc))
    for (const tag of op.tags ?? []) t.ok(declared.has(tag), `${key}: tag ${tag} is declared`);
});

t.test('typed parameters and headers', async (t) => {
  const { doc } = await documentOf(t);
  const params = Object.fromEntries(doc.paths['/api/messages']!.get!.parameters!.map((p) => [p.name, p]));
  t.match(params.limit, { in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } });
  t.match(params.offset, { in: 'query', schema: { type: 'integer', minimum: 0, default: 0 } });
  t.match(params.status, { in: 'query', schema: { type: 'string', enum: ['queued', 'sent', 'failed', 'cancelled'] } });
  for (const path of ['/api/sms/send', '/api/messages']) {
    const post = doc.paths[path]!.post!;
    t.match(
      post.parameters,
      [{ in: 'header', name: 'Idempotency-Key', schema: { type: 'string', maxLength: 128 } }],
      `${path}: Idempotency-Key`,
    );
    t.ok(post.requestBody?.content['application/json']?.example, `${path}: an example request`);
  }
  const diag = JSON.stringify(doc.paths['/api/diagnostics']!.get!.responses['200']);
  t.notMatch(diag, /"additionalProperties":\{\}/, 'diagnostics checks are typed, never "any value"');
});

t.test(
  'what the gateway really sends matches the document: Retry-After on a 429, the guard body on a 401',
  async (t) => {
    const { app, doc } = await (async () => {
      const built = await testApp(t);
      return { app: built.app, doc: (await built.get('/openapi.json')).json() as Doc };
    })();
    t.ok(doc.paths['/api/stats']!.get!.responses['401']);
    const unauthorized = await app.inject({ url: '/api/stats', remoteAddress: '10.0.0.9' });
    t.equal(unauthorized.statusCode, 401);
    t.same(unauthorized.json(), { error: 'Unauthorized' });
    let limited;
    for (let i = 0; i < 30 && limited?.statusCode !== 429; i++)
      limited = await app.inject({ url: '/health', remoteAddress: '10.0.0.8' });
    t.equal(limited?.statusCode, 429);
    t.match(limited?.headers['retry-after'], /^\d+$/);
    t.match(limited?.json(), { success: false, error: { code: 'rate_limited' }, retryAfterSeconds: Number });
  },
);

t.test('answers without a body declare none; bodies that are accepted are declared', async (t) => {
  const { doc } = await documentOf(t);
  const removed = doc.paths['/api/webhooks/{id}']!.delete!.responses['204']!;
  t.equal(
    removed.content,
    undefined,
    'DELETE /api/webhooks/{id} 204: no content (a validating proxy would refuse the empty answer)',
  );
  const test = doc.paths['/api/webhooks/test']!.post! as Operation & {
    requestBody?: { required?: boolean; content: Record<string, { schema: { type?: string } }> };
  };
  t.ok(test.requestBody, 'POST /api/webhooks/test declares the {} it accepts');
  t.not(test.requestBody?.required, true, 'optional: no body is fine too');
  t.equal(test.requestBody?.content['application/json']?.schema.type, 'object');
});

t.test('a real 204 has no content-type and no body; the test route takes {} and no body', async (t) => {
  const a = await testApp(t);
  const headers = { ...a.auth, 'content-type': 'application/json' };
  const added = await a.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    remoteAddress: '192.168.1.30',
    headers,
    payload: '{"url":"https://hooks.example.net/x"}',
  });
  t.equal(added.statusCode, 201);
  a.clock.advance(1000);
  const gone = await a.app.inject({
    method: 'DELETE',
    url: `/api/webhooks/${added.json().data.id}`,
    remoteAddress: '192.168.1.30',
    headers: a.auth,
  });
  t.equal(gone.statusCode, 204);
  t.equal(gone.body, '');
  t.equal(gone.headers['content-type'], undefined, 'no content-type');
  t.not(Number(gone.headers['content-length'] ?? 0) > 0, true, 'no content-length above 0');
  a.clock.advance(1000);
  const withBody = await a.app.inject({
    method: 'POST',
    url: '/api/webhooks/test',
    remoteAddress: '192.168.1.30',
    headers,
    payload: '{}',
  });
  t.equal(withBody.statusCode, 200, withBody.body);
  a.clock.advance(1000);
  const without = await a.app.inject({
    method: 'POST',
    url: '/api/webhooks/test',
    remoteAddress: '192.168.1.30',
    headers: a.auth,
  });
  t.equal(without.statusCode, 200, without.body);
});
