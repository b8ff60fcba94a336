// The console's page and files as the gateway serves them: public (no key) but behind the
// local-network guard, the contract's exact CSP, nosniff and no-referrer on each, gzip when
// asked, no inline script or style in the page, nothing from outside, not in the OpenAPI
// document, under 100 KB compressed in all (dist/console, built by npm run build).
import t, { type Test } from 'tap';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import Fastify from 'fastify';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ROOT, tempDir } from '../helpers/paths.js';
import { testApp } from '../helpers/test-app.js';
import { CONSOLE_CSP, CONSOLE_DIR, consoleRoutes } from '../../src/http/routes/console.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'";
const URLS = { '/': /^text\/html/, '/console/app.js': /^text\/javascript/, '/console/app.css': /^text\/css/ };

t.test('each file: public, the exact headers, the right type', async (t) => {
  t.equal(CONSOLE_CSP, CSP, "the contract's CSP, byte for byte");
  const { app } = await testApp(t);
  for (const [url, type] of Object.entries(URLS)) {
    const res = await app.inject({ url, remoteAddress: '192.168.1.40' });
    t.equal(res.statusCode, 200, `${url} needs no key`);
    t.match(res.headers['content-type'], type, url);
    t.equal(res.headers['content-security-policy'], CSP, `${url}: CSP`);
    t.equal(res.headers['x-content-type-options'], 'nosniff', `${url}: nosniff`);
    t.equal(res.headers['referrer-policy'], 'no-referrer', `${url}: no-referrer`);
    t.equal(
      res.body,
      readFileSync(join(CONSOLE_DIR, url === '/' ? 'index.html' : url.slice('/console/'.length)), 'utf8'),
      `${url}: the built file`,
    );
    const head = await app.inject({ method: 'HEAD', url, remoteAddress: '192.168.1.40' });
    t.equal(head.statusCode, 200, `HEAD ${url}`);
    const gz = await app.inject({
      url,
      remoteAddress: '192.168.1.40',
      headers: { 'accept-encoding': 'gzip, deflate' },
    });
    t.equal(gz.headers['content-encoding'], 'gzip', `${url}: gzip when asked`);
    t.equal(gunzipSync(gz.rawPayload).toString('utf8'), res.body);
    const outside = await app.inject({ url, remoteAddress: '8.8.8.8' });
    t.equal(outside.statusCode, 403, `${url}: 403 from outside the local network`);
  }
});

/** Only the console's routes, serving dir. */
async function consoleOnly(t: Test, dir: string) {
  const app = Fastify();
  await app.register(consoleRoutes(dir));
  await app.ready();
  t.teardown(() => app.close());
  return app;
}

t.test('the files are read when first asked for (a start reads nothing), then kept', async (t) => {
  const dir = tempDir(t);
  const app = await consoleOnly(t, dir);
  writeFileSync(join(dir, 'index.html'), '<p>built after the start</p>');
  writeFileSync(join(dir, 'app.js'), 'console.log(1);');
  writeFileSync(join(dir, 'app.css'), 'p{}');
  const first = await app.inject({ url: '/' });
  t.equal(first.statusCode, 200);
  t.equal(first.body, '<p>built after the start</p>', 'read at the first request, not at registration');
  writeFileSync(join(dir, 'index.html'), '<p>changed</p>');
  t.equal((await app.inject({ url: '/' })).body, '<p>built after the start</p>', 'then kept in memory');
  const gz = await app.inject({ url: '/console/app.js', headers: { 'accept-encoding': 'gzip' } });
  t.equal(gunzipSync(gz.rawPayload).toString('utf8'), 'console.log(1);', 'with its gzip copy');
});

t.test('not built: the page says what to do, the other files are not_found', async (t) => {
  const app = await consoleOnly(t, tempDir(t));
  const page = await app.inject({ url: '/' });
  t.equal(page.statusCode, 200);
  t.match(page.body, /The console is not built: run npm run build/);
  t.equal(page.headers['content-security-policy'], CSP);
  const js = await app.inject({ url: '/console/app.js' });
  t.equal(js.statusCode, 404);
  t.match(js.json(), { error: { code: 'not_found', message: /run npm run build/ } });
});

t.test('no other console URL, and the key still guards everything else', async (t) => {
  const { app } = await testApp(t);
  for (const url of [
    '/console/',
    '/console/index.html',
    '/console/app.js.map',
    '/index.html',
    '/console/../package.json',
  ]) {
    const res = await app.inject({ url, remoteAddress: '192.168.1.40' });
    t.equal(res.statusCode, 401, `${url}: not a console file, so the key is asked for`);
  }
  t.equal(
    (await app.inject({ method: 'POST', url: '/', remoteAddress: '192.168.1.40' })).statusCode,
    401,
    'POST / is no public route',
  );
});

t.test('the page: no inline script or style, nothing from outside', async (t) => {
  const html = readFileSync(join(CONSOLE_DIR, 'index.html'), 'utf8');
  t.notMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/i, 'every script has a src');
  t.notMatch(html, /<style|\sstyle=|\son[a-z]+=/i, 'no inline style or handler');
  for (const m of html.matchAll(/(?:src|href)="([^"]*)"/g))
    t.match(m[1], /^(\/console\/|data:,$)/, `${m[1]}: from the gateway`);
  // The sources (the bundle holds Preact's own innerHTML support, which the views never use).
  const dir = join(ROOT, 'src/console');
  for (const f of readdirSync(dir).filter((n) => /\.tsx?$/.test(n))) {
    const code = readFileSync(join(dir, f), 'utf8');
    t.notMatch(
      code,
      /dangerouslySetInnerHTML|innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function\(/,
      `${f}: no HTML from strings, no eval`,
    );
    const computed = code.match(/\b(href|src|action)=\{/g)?.length ?? 0;
    // A view's own name, or a tag's History filter (tagHref: #/history? and the tag URL-encoded, no scheme).
    const ownViews = code.split('href={`#/${id}`}').length - 1 + code.split('href={tagHref(').length - 1;
    t.equal(computed, ownViews, `${f}: a computed href only from the views' own names or a tag's filter`);
    t.notMatch(code, /fetch\(\s*['"`]https?:/, `${f}: relative URLs only`);
  }
});

t.test('under 100 KB gzip-compressed in all; not in the OpenAPI document', async (t) => {
  let total = 0;
  for (const f of ['index.html', 'app.js', 'app.css']) total += gzipSync(readFileSync(join(CONSOLE_DIR, f))).length;
  t.ok(total <= 100 * 1024, `${total} bytes`);
  const { get } = await testApp(t);
  const paths = Object.keys((await get('/openapi.json')).json().paths as object);
  t.notOk(
    paths.some((p) => p === '/' || p.startsWith('/console')),
    'the console is not an API route',
  );
});
