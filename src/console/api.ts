// The console's one way to the gateway: fetch on relative URLs (the page's own origin) with
// the bearer key. Every answer is sorted into what the console says: the data, a refused
// key (401), an unreachable gateway, or the API's error envelope (code and message).
import type { ErrorBody } from '../core/errors.js';

export type Problem =
  { kind: 'unreachable' } | { kind: 'unauthorized' } | { kind: 'error'; status: number; code: string; message: string };

export class ApiProblem extends Error {
  constructor(readonly problem: Problem) {
    super(problem.kind === 'error' ? problem.message : problem.kind);
  }
}

export type Connection = 'ok' | 'unreachable' | 'unauthorized';
type Listener = (state: Connection) => void;
let listener: Listener = () => {};

/** The app hears of every answer: the gateway reached, unreachable, or the key refused. */
export function onConnection(fn: Listener) {
  listener = fn;
}

export async function api<T>(key: string, method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      cache: 'no-store',
      credentials: 'omit',
      redirect: 'error',
    });
  } catch {
    listener('unreachable');
    throw new ApiProblem({ kind: 'unreachable' });
  }
  if (res.status === 401) {
    listener('unauthorized');
    throw new ApiProblem({ kind: 'unauthorized' });
  }
  listener('ok');
  if (res.status === 204) return undefined as T;
  let parsed: unknown;
  try {
    parsed = await res.json();
  } catch {
    if (res.ok)
      throw new ApiProblem({
        kind: 'error',
        status: res.status,
        code: 'bad_answer',
        message: 'The gateway answered something that is not JSON.',
      });
    throw new ApiProblem({
      kind: 'error',
      status: res.status,
      code: 'http_error',
      message: `The gateway answered ${res.status}.`,
    });
  }
  if (!res.ok) {
    const err = (parsed as Partial<ErrorBody>).error;
    throw new ApiProblem({
      kind: 'error',
      status: res.status,
      code: err?.code ?? 'http_error',
      message: err?.message ?? `The gateway answered ${res.status}.`,
    });
  }
  return parsed as T;
}

/** GET /health needs no key: the mode, before and after signing in. */
export async function health(): Promise<{ mode: string; simulation: string; version: string } | undefined> {
  try {
    const res = await fetch('/health', { cache: 'no-store', credentials: 'omit' });
    return res.ok ? ((await res.json()) as { mode: string; simulation: string; version: string }) : undefined;
  } catch {
    return undefined;
  }
}

/** What to tell the user about a failed call. */
export function describe(err: unknown): string {
  if (err instanceof ApiProblem) {
    const p = err.problem;
    if (p.kind === 'unreachable')
      return 'The gateway cannot be reached: is it running, and is this device on the same network?';
    if (p.kind === 'unauthorized') return 'The key was refused: it is wrong or was rotated.';
    return p.message;
  }
  return err instanceof Error ? err.message : String(err);
}
