// What the built gateway has loaded when it gives its first answer: none of the code the first
// answer does not need (issue 21). A hook (test/fixtures/load-recorder.cjs) records every
// module resolved and Node's own module list at the first HTTP request; dist/meta.json says
// which sources each loaded chunk of the bundle holds.
import t from 'tap';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, tempDir } from '../helpers/paths.js';
import { fakeTermux } from '../helpers/fake-termux.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { PHONE_COMMANDS, healthyPhone } from '../fixtures/phone.js';

const RECORDER = join(ROOT, 'test/fixtures/load-recorder.cjs');

/** Sources (node_modules/... or src/...) and packages the first answer does not need. */
const NOT_AT_START = [
  /^node_modules\/@fastify\/swagger\//, // the OpenAPI document is a file built by npm run build
  /^node_modules\/yaml\//,
  /^node_modules\/ajv\//, // zod's compilers replace Fastify's
  /^node_modules\/fast-json-stringify\/index\.js$/, // (Fastify's own error serializer uses its small lib/serializer.js)
  /^node_modules\/qrcode-terminal\//, // only on a terminal
  /^node_modules\/prom-client\/index\.js$/, // its index loads the Pushgateway, Summary, default metrics
  /^node_modules\/@opentelemetry\//,
  /^node_modules\/mqtt\//, // only when MQTT is configured
  /^node_modules\/thread-stream\//, // pino's transports (worker threads): the gateway writes its log itself
  /^src\/mqtt\//,
  /^src\/cli\/doctor\//,
];
/** Node's modules the first answer does not need (their loading was most of their cost). */
const BUILTINS_NOT_AT_START = ['zlib', 'v8', 'internal/util/parse_args/parse_args', 'internal/util/diff'];

t.test(
  'the first answer comes from a gateway that loaded only what it needs',
  {
    // Node 22's module.registerHooks cannot resolve beside its ESM loader (ERR_METHOD_NOT_IMPLEMENTED
    // at the gateway's first import()); the recorder needs Node 24, the phone's.
    skip: Number(process.versions.node.split('.')[0]) >= 24 ? false : 'the load recorder needs Node 24 or newer',
  },
  async (t) => {
    await holdPort8080(t);
    const fake = fakeTermux(t, PHONE_COMMANDS);
    healthyPhone(fake);
    const out = join(tempDir(t), 'loaded.json');
    const env = {
      ...fake.env,
      SMS_GATEWAY_HOME: tempDir(t),
      NODE_OPTIONS: `--require=${RECORDER}`,
      SMS_GATEWAY_TEST_LOADED: out,
    };
    const gw = await startGateway(t, env);
    t.ok(existsSync(out), 'the recorder wrote what was loaded at the first request');
    const loaded = JSON.parse(readFileSync(out, 'utf8')) as { urls: string[]; builtins: string[] };
    gw.proc.kill('SIGTERM');
    await gw.exited;

    const meta = JSON.parse(readFileSync(join(ROOT, 'dist/meta.json'), 'utf8')) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const files = loaded.urls.filter((u) => u.startsWith('file:')).map((u) => fileURLToPath(u).slice(ROOT.length + 1));
    const chunks = files.filter((f) => f in meta.outputs);
    t.ok(chunks.includes('dist/main.js') && chunks.length > 5, `the bundle's chunks are seen (${chunks.length})`);
    const sources = [
      ...chunks.flatMap((c) => Object.keys(meta.outputs[c]!.inputs)),
      ...files.filter((f) => f.startsWith('node_modules/')),
    ];
    t.ok(
      sources.some((s) => s.startsWith('node_modules/fastify/')) && sources.includes('src/core/config.ts'),
      'what it does need is seen',
    );
    for (const pattern of NOT_AT_START)
      t.same(
        sources.filter((s) => pattern.test(s)),
        [],
        `not loaded: ${pattern.source}`,
      );
    for (const name of BUILTINS_NOT_AT_START)
      t.notOk(loaded.builtins.includes(`NativeModule ${name}`), `node:${name} not loaded`);
  },
);
