// Plain HTTP to the real gateway on port 8080 from a chosen loopback address, each answer
// checked against the /openapi.json the gateway serves.
import { PORT } from '../../src/core/runtime.js';
import { checkerFor } from '../fixtures/openapi-contract.js';

export type HttpAnswer = { status: number; headers: Record<string, string | string[] | undefined>; body: string };
let e2eContract: ReturnType<typeof checkerFor> | undefined;

/**
 * A plain HTTP request to the local gateway from a chosen loopback source address; the
 * answer must be one /openapi.json declares (fetched once, with the first key seen).
 */
export async function httpGet(
  path: string,
  headers: Record<string, string> = {},
  caller = '127.0.0.1',
  method = 'GET',
  body?: string,
): Promise<HttpAnswer> {
  const res = await plainHttp(path, headers, caller, method, body);
  if (!e2eContract && headers.authorization && res.status !== 401) {
    const doc = await plainHttp('/openapi.json', { authorization: headers.authorization }, '127.0.0.254');
    if (doc.status === 200) e2eContract = checkerFor(JSON.parse(doc.body));
  }
  const problem = e2eContract?.check(method, path, {
    statusCode: res.status,
    contentType: String(res.headers['content-type'] ?? ''),
    body: res.body,
  });
  if (problem) throw new Error(`contract: ${problem}`);
  return res;
}

async function plainHttp(
  path: string,
  headers: Record<string, string>,
  caller: string,
  method = 'GET',
  body?: string,
): Promise<HttpAnswer> {
  const http = await import('node:http');
  return new Promise((res, rej) => {
    const req = http.request(
      { host: '127.0.0.1', port: PORT, path, method, headers, localAddress: caller, agent: false },
      (r) => {
        let data = '';
        r.on('data', (d: Buffer) => (data += d.toString()));
        r.on('end', () => res({ status: r.statusCode ?? 0, headers: r.headers, body: data }));
      },
    );
    req.on('error', rej);
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.end(body);
  });
}
