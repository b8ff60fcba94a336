// End to end: malformed and hostile HTTP/1.1 on raw TCP sockets against the real
// `sms-gateway start` process. Every case must end in a 4xx answer or a closed socket
// within a bounded time, never a 5xx, while a normal GET /health from another loopback
// address keeps answering 200. Holds the port-8080 lock for the whole file.
//
// Each case has its own loopback source address (127.0.0.20-40), so the per-caller rate
// limit of one case never touches another. The slow cases (slow-loris, a body that never
// completes) are started first and run concurrently with the quick ones.
import t, { type Test } from 'tap';
import { connect } from 'node:net';
import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, tempDir } from '../helpers/paths.js';
import { holdPort8080, startGateway } from '../helpers/gateway-process.js';
import { httpGet } from '../helpers/http.js';

const HEALTH_MONITOR = '127.0.0.20';
const AFTERWARDS = '127.0.0.40';

/** Protocol errors (llhttp) are answered at once; this bound is only generous. */
const PARSER_BOUND_MS = 5_000;
/**
 * The app sets headersTimeout 10 s and requestTimeout 15 s: with a margin, a stalled
 * client should be cut off within 25 s.
 */
const INTENDED_TIMEOUT_BOUND_MS = 25_000;
/**
 * Hard bound for the stalled cases: requestTimeout 15 s, checked every 2 s
 * (connectionsCheckingInterval), plus margin.
 */
const HARD_TIMEOUT_BOUND_MS = 30_000;

type Step = string | Buffer | number; // bytes to write, or milliseconds to wait

interface Outcome {
  /** response: a status line arrived; closed: closed with no bytes; unparsable: bytes but no status line. */
  kind: 'response' | 'closed' | 'unparsable' | 'timeout';
  status?: number;
  body: string;
  raw: string;
  ms: number;
  /** Drip writes made before the end (slow-loris). */
  drips: number;
  error?: string;
}

interface ExchangeOptions {
  /** After the steps, write `drip()` every `everyMs` until the socket ends. */
  drip?: { everyMs: number; next: () => string };
  onClose?: () => void;
}

/**
 * Connects from `localAddress`, writes the steps, and waits for a complete response, the
 * socket's end, or `limitMs` (then it gives up: kind 'timeout').
 */
function exchange(localAddress: string, steps: Step[], limitMs: number, opts: ExchangeOptions = {}): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = Date.now();
    let raw = '';
    let drips = 0;
    let done = false;
    let error: string | undefined;
    let dripTimer: NodeJS.Timeout | undefined;
    const socket = connect({ host: '127.0.0.1', port: 8080, localAddress });

    const finish = (kind?: Outcome['kind']) => {
      if (done) return;
      done = true;
      clearTimeout(limit);
      clearInterval(dripTimer);
      const headEnd = raw.indexOf('\r\n\r\n');
      const status = /^HTTP\/1\.[01] (\d{3}) /.exec(raw);
      const outcome: Outcome = {
        kind: kind ?? (status ? 'response' : raw.length === 0 ? 'closed' : 'unparsable'),
        body: headEnd >= 0 ? raw.slice(headEnd + 4) : '',
        raw: raw.length > 400 ? `${raw.slice(0, 400)}...` : raw,
        ms: Date.now() - started,
        drips,
      };
      if (status) outcome.status = Number(status[1]);
      if (error) outcome.error = error;
      socket.destroy();
      opts.onClose?.();
      resolve(outcome);
    };
    const limit = setTimeout(() => finish('timeout'), limitMs);

    socket.on('connect', async () => {
      for (const step of steps) {
        if (done || socket.destroyed) return;
        if (typeof step === 'number') await sleep(step);
        else socket.write(step);
      }
      if (opts.drip) {
        const { everyMs, next } = opts.drip;
        dripTimer = setInterval(() => {
          if (done || socket.destroyed || !socket.writable) return;
          drips += 1;
          socket.write(next());
        }, everyMs);
      }
    });
    socket.on('data', (d: Buffer) => {
      raw += d.toString('latin1');
      const headEnd = raw.indexOf('\r\n\r\n');
      if (headEnd < 0) return;
      const length = /\r\ncontent-length: *(\d+)\r\n/i.exec(raw.slice(0, headEnd + 2));
      if (length && raw.length - headEnd - 4 >= Number(length[1])) finish();
    });
    // A reset after the server gave up on us is one way of closing the socket.
    socket.on('error', (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
    });
    socket.on('close', () => finish());
  });
}

/** An endless stream of header bytes that never contains the blank line ending the head. */
function headerDrip(bytesPerDrip = 3): () => string {
  let pending = '';
  let n = 0;
  return () => {
    while (pending.length < bytesPerDrip) pending += `X-Slow-${n++}: ${n}\r\n`;
    const chunk = pending.slice(0, bytesPerDrip);
    pending = pending.slice(bytesPerDrip);
    return chunk;
  };
}

const describe = (o: Outcome) =>
  `${o.kind}${o.status ? ` ${o.status}` : ''} after ${o.ms} ms${o.error ? ` (${o.error})` : ''}: ${JSON.stringify(o.raw)}`;

/** The gateway answered a 4xx or closed the socket, within the bound, and never a 5xx. */
function assertRefused(t: Test, o: Outcome, boundMs: number) {
  t.not(o.kind, 'timeout', `answered or closed within ${boundMs} ms`, { found: describe(o) });
  t.ok(
    o.kind === 'closed' || (o.kind === 'response' && o.status! >= 400 && o.status! < 500),
    `a 4xx answer or a closed socket (got ${o.kind}${o.status ? ` ${o.status}` : ''})`,
    { found: describe(o) },
  );
  t.notOk(o.status !== undefined && o.status >= 500, 'never a 5xx', { found: describe(o) });
}

t.test('malformed HTTP on raw sockets against the real process', async (t) => {
  await holdPort8080(t);
  const home = tempDir(t);
  const env = {
    ...process.env,
    SMS_GATEWAY_HOME: home,
    SMS_GATEWAY_MODE: 'simulated',
    PATH: '/usr/local/bin:/usr/bin:/bin',
  };
  const gw = await startGateway(t, env, HEALTH_MONITOR);
  const key = spawnSync(process.execPath, [CLI, 'key', 'show'], {
    env,
    encoding: 'utf8',
    timeout: 20_000,
  }).stdout.trim();
  t.match(key, /^sk_local_[A-Za-z0-9]{32}$/, 'the key for the cases that need to get past the key check');
  const auth = `Authorization: Bearer ${key}\r\n`;

  // The stalled cases start first and run while everything else is checked.
  let stalledOpen = 0;
  const startStalled = (localAddress: string, steps: Step[], opts: ExchangeOptions = {}) => {
    stalledOpen += 1;
    return exchange(localAddress, steps, HARD_TIMEOUT_BOUND_MS, { ...opts, onClose: () => (stalledOpen -= 1) });
  };
  const slowLoris = (localAddress: string) =>
    startStalled(localAddress, ['GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n'], {
      drip: { everyMs: 500, next: headerDrip() },
    });
  const slowOne = slowLoris('127.0.0.34');
  const slowMany = ['127.0.0.35', '127.0.0.36', '127.0.0.37', '127.0.0.38', '127.0.0.39'].map(slowLoris);
  const shortBody = startStalled('127.0.0.31', [
    `POST /api/sms/send HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"to":"+1555`,
  ]);

  // GET /health from its own address every 500 ms while the cases run.
  const samples: { status: number; ms: number; whileStalled: boolean; error?: string }[] = [];
  let monitoring = true;
  const monitor = (async () => {
    while (monitoring) {
      const whileStalled = stalledOpen > 0;
      const started = Date.now();
      try {
        const res = await httpGet('/health', {}, HEALTH_MONITOR);
        samples.push({ status: res.status, ms: Date.now() - started, whileStalled });
      } catch (err) {
        samples.push({ status: 0, ms: Date.now() - started, whileStalled, error: (err as Error).message });
      }
      await sleep(500);
    }
  })();

  const protocolErrors: { name: string; outcome: Outcome }[] = [];
  const parserCase = (name: string, localAddress: string, steps: Step[]) =>
    t.test(name, async (t) => {
      const o = await exchange(localAddress, steps, PARSER_BOUND_MS);
      assertRefused(t, o, PARSER_BOUND_MS);
      if (o.kind === 'response') protocolErrors.push({ name, outcome: o });
    });

  await parserCase('garbage request line', '127.0.0.21', ['HELLO\x01\x02 WORLD \xff\r\n\r\n']);
  await parserCase('request line "GET" alone', '127.0.0.22', ['GET\r\n\r\n']);
  await parserCase('GET / HTTP/9.9', '127.0.0.23', ['GET /health HTTP/9.9\r\nHost: 127.0.0.1\r\n\r\n']);
  await parserCase('a request line of 100 KB', '127.0.0.24', [
    `GET /${'a'.repeat(100 * 1024)} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`,
  ]);
  await parserCase('a header value of 100 KB', '127.0.0.25', [
    `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${'b'.repeat(100 * 1024)}\r\n\r\n`,
  ]);
  await parserCase('200 headers of 100 bytes each (over the 16 KB header limit)', '127.0.0.26', [
    `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n${Array.from({ length: 200 }, (_, i) => `X-H-${i}: ${'v'.repeat(100)}\r\n`).join('')}\r\n`,
  ]);

  await t.test('200 small headers within the size limit are ordinary HTTP: 200, not a 5xx', async (t) => {
    const headers = Array.from({ length: 200 }, (_, i) => `X-H-${i}: v\r\n`).join('');
    const o = await exchange(
      '127.0.0.27',
      [`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${headers}\r\n`],
      PARSER_BOUND_MS,
    );
    t.equal(o.kind, 'response', describe(o));
    t.equal(o.status, 200, 'status 200');
    t.match(o.body, /^\{"status":"ok",/, 'the /health body');
  });

  await parserCase('two Content-Length headers with different values', '127.0.0.28', [
    `POST /api/sms/send HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 5\r\nContent-Length: 10\r\n\r\n{"a":1}xxx`,
  ]);
  await parserCase('Content-Length together with Transfer-Encoding: chunked', '127.0.0.29', [
    `POST /api/sms/send HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nContent-Length: 7\r\nTransfer-Encoding: chunked\r\n\r\n7\r\n{"a":1}\r\n0\r\n\r\n`,
  ]);
  await parserCase('an invalid chunked body (chunk size "ZZ")', '127.0.0.30', [
    `POST /api/sms/send HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n{"a":1}\r\n0\r\n\r\n`,
  ]);
  await parserCase('a NUL byte in the path', '127.0.0.32', ['GET /hea\0lth HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n']);

  await t.test('a percent-encoded NUL (%00) in the path: a 4xx from the guards or the router', async (t) => {
    const o = await exchange(
      '127.0.0.33',
      ['GET /health%00 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'],
      PARSER_BOUND_MS,
    );
    assertRefused(t, o, PARSER_BOUND_MS);
    t.equal(o.kind, 'response', 'answered, not just closed');
  });

  await t.test('a body shorter than its Content-Length, then silence', async (t) => {
    const o = await shortBody;
    assertRefused(t, o, HARD_TIMEOUT_BOUND_MS);
  });

  await t.test('slow-loris: a few header bytes every 500 ms, never finished', async (t) => {
    const o = await slowOne;
    assertRefused(t, o, HARD_TIMEOUT_BOUND_MS);
    t.ok(o.drips >= 1, 'the client was still dripping header bytes when the server ended it', { found: describe(o) });
  });

  await t.test('slow-loris on five sockets at once', async (t) => {
    const outcomes = await Promise.all(slowMany);
    for (const [i, o] of outcomes.entries()) {
      await t.test(`socket ${i + 1}`, async (t) => assertRefused(t, o, HARD_TIMEOUT_BOUND_MS));
    }
  });

  const stalled = [
    { name: 'short body', outcome: await shortBody },
    { name: 'slow-loris', outcome: await slowOne },
    ...(await Promise.all(slowMany)).map((outcome, i) => ({ name: `slow-loris ${i + 1} of 5`, outcome })),
  ];
  await t.test(
    `stalled clients are cut off within ${INTENDED_TIMEOUT_BOUND_MS / 1000} s (headersTimeout 10 s, requestTimeout 15 s)`,
    async (t) => {
      const late = stalled
        .filter(({ outcome }) => outcome.ms > INTENDED_TIMEOUT_BOUND_MS)
        .map(({ name, outcome }) => `${name}: ${outcome.ms} ms`);
      // Known bug: the assertion runs and reports, but does not fail the file.
      t.same(late, [], 'none ended later than that');
    },
  );

  monitoring = false;
  await monitor;

  await t.test('GET /health from another address kept answering 200 meanwhile', async (t) => {
    const bad = samples.filter((s) => s.status !== 200 || s.ms > 5_000);
    t.same(bad, [], 'every sample was a 200 within 5 s');
    t.ok(
      samples.filter((s) => s.whileStalled).length >= 10,
      `at least 10 samples while stalled sockets were open (got ${samples.filter((s) => s.whileStalled).length})`,
    );
  });

  await t.test('afterwards: the process runs and GET /health from a fresh address is 200', async (t) => {
    t.equal(gw.proc.exitCode, null, 'the gateway process is still running');
    const res = await httpGet('/health', {}, AFTERWARDS);
    t.equal(res.status, 200, 'status 200');
    t.equal(JSON.parse(res.body).status, 'ok', 'the /health body');
    await sleep(1100); // request lines are written in batches, at most a second late
    t.notMatch(gw.output(), /"level":(50|60)/, 'no error or fatal line in the gateway log');
    t.notMatch(gw.output(), /"status":5\d\d/, 'no 5xx in the request log');
  });

  await t.test('protocol-level 4xx answers use the project error envelope', async (t) => {
    const answered = [...protocolErrors, ...stalled.filter(({ outcome }) => outcome.kind === 'response')];
    t.ok(answered.length >= 10, `there are protocol-level answers to check (${answered.length})`);
    const isEnvelope = (body: string) => {
      try {
        const parsed = JSON.parse(body) as {
          success?: unknown;
          smsSent?: unknown;
          error?: { code?: unknown; message?: unknown };
        };
        return (
          parsed.success === false &&
          parsed.smsSent === false &&
          typeof parsed.error?.code === 'string' &&
          typeof parsed.error?.message === 'string'
        );
      } catch {
        return false;
      }
    };
    const other = answered
      .filter(({ outcome }) => !isEnvelope(outcome.body))
      .map(({ name, outcome }) => `${name}: ${outcome.status} ${outcome.body}`);
    // Known bug: the assertion runs and reports, but does not fail the file.
    t.same(other, [], 'every one is { success: false, smsSent: false, error: { code, message } }');
  });
});
