// GET /openapi.json is a file the build writes (dist/openapi.json, server/openapi-build.ts):
// the document generated from the routes' schemas now must be that file byte for byte (a
// stale build fails here: run `npm run build`), the gateway sends those bytes as JSON with
// the document's version set to its own, and a missing file is a 500, never a crash.
import t from 'tap';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openApiDocumentText } from '../../src/server/openapi-build.js';
import { builtDocument, OPENAPI_FILE } from '../../src/http/routes/openapi.js';
import { VERSION } from '../../src/core/package-root.js';
import { tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';

t.test('the built file is the document the routes make', async (t) => {
  const generated = await openApiDocumentText(VERSION);
  t.equal(readFileSync(OPENAPI_FILE, 'utf8'), generated, 'dist/openapi.json is up to date (npm run build)');
  const { get } = await testApp(t);
  const res = await get('/openapi.json');
  t.equal(res.statusCode, 200);
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8');
  t.equal(res.body, generated, 'served byte for byte');
});

t.test("the document says the gateway's own version; read once", async (t) => {
  const file = join(tempDir(t), 'openapi.json');
  writeFileSync(
    file,
    JSON.stringify({ openapi: '3.0.3', info: { title: 'sms-gateway', version: '0.1.0', description: 'd' }, paths: {} }),
  );
  const same = builtDocument('0.1.0', file);
  t.equal(same(), readFileSync(file, 'utf8'));
  const other = builtDocument('9.9.9', file);
  t.same(JSON.parse(other()), {
    openapi: '3.0.3',
    info: { title: 'sms-gateway', version: '9.9.9', description: 'd' },
    paths: {},
  });
  writeFileSync(file, 'changed');
  t.same(JSON.parse(other()).info.version, '9.9.9', 'the first read is kept');
  t.throws(() => builtDocument('0.1.0', join(tempDir(t), 'none.json'))(), /missing: run `npm run build`/);
});
