// The HttpClient that SMSGate's npm client (android-sms-gateway) asks its user to supply, as a
// new user writes it on fetch: JSON bodies out, JSON answers back, a status of 400 or more
// thrown as an HttpError; and every answer checked against the gateway's /openapi.json.
import type { HttpClient } from 'android-sms-gateway';
import { checkerFor } from '../fixtures/openapi-contract.js';

export class HttpError extends Error {
  readonly status: number;
  readonly body: string;
  readonly headers: Headers;
  constructor(status: number, body: string, headers: Headers) {
    super(`HTTP ${status}: ${body}`);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export interface RecordedCall {
  method: string;
  url: string;
  headers: Record<string, string>;
  status: number;
}

/** A fetch adapter for the client; `docKey` reads /openapi.json (Bearer) to hold every answer to it. */
export function fetchHttpClient(docKey: string): HttpClient & { calls: RecordedCall[] } {
  const calls: RecordedCall[] = [];
  let checker: ReturnType<typeof checkerFor> | undefined;
  const call = async <T>(method: string, url: string, headers: Record<string, string> = {}, body?: unknown) => {
    const res = await fetch(url, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    calls.push({ method, url, headers, status: res.status });
    checker ??= checkerFor(
      (await (
        await fetch(new URL('/openapi.json', url), { headers: { authorization: `Bearer ${docKey}` } })
      ).json()) as Parameters<typeof checkerFor>[0],
    );
    const { pathname, search } = new URL(url);
    const problem = checker.check(method, pathname + search, {
      statusCode: res.status,
      contentType: res.headers.get('content-type') ?? '',
      body: text,
    });
    if (problem) throw new Error(`contract: ${problem}`);
    if (res.status >= 400) throw new HttpError(res.status, text, res.headers);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };
  return {
    calls,
    get: (url, headers) => call('GET', url, headers),
    post: (url, body, headers) => call('POST', url, headers, body),
    put: (url, body, headers) => call('PUT', url, headers, body),
    patch: (url, body, headers) => call('PATCH', url, headers, body),
    delete: (url, headers) => call('DELETE', url, headers),
  };
}
