// GET /health: the exact JSON (the schema's keys, in its order) and its content type, as
// zod's serializer wrote it before /health was answered with JSON.stringify directly.
import t from 'tap';
import { HealthSchema } from '../../src/http/routes/health.js';
import { testApp } from '../helpers/test-app.js';

t.test("GET /health answers the schema's JSON, as JSON in UTF-8", async (t) => {
  const app = await testApp(t, { runtime: { mode: 'simulated', simulation: 'failure', smsEnabled: true } });
  const res = await app.get('/health');
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8', "the content type zod's serializer gave it");
  const body = JSON.parse(res.body) as unknown;
  t.equal(res.body, JSON.stringify(HealthSchema.parse(body)), 'byte for byte what the schema encodes');
  t.same(
    Object.keys(body as object),
    ['status', 'version', 'smsEnabled', 'mode', 'simulation', 'testMode'],
    'its keys, in order',
  );
  t.match(body, { status: 'ok', mode: 'simulated', simulation: 'failure', smsEnabled: true, testMode: true });
});
