// The gateway's Node HTTP server, made for Fastify (its serverFactory option, server/app.ts):
// the parser options (no answer of Node's own before the hooks, http/connection-limits.ts),
// the deadlines for headers and bodies Node checks at its own interval (the gateway's timers
// close such connections on time: connection-limits.ts, request-deadline.ts), and the app's
// handler behind the slow-reader gate (http/slow-readers.ts), which says on the server when it
// hands a request to the app (http/answer-started.ts). Fastify sets none of these itself when
// it is given a server factory.
import { createServer, type RequestListener, type Server } from 'node:http';
import { HEADERS_TIMEOUT_MS, PARSER_OPTIONS } from './connection-limits.js';
import { ANSWER_STARTED } from './answer-started.js';
import { REQUEST_TIMEOUT_MS } from './request-deadline.js';
import { answerInTurn, type SlowReaderDeps } from './slow-readers.js';

export function createHttpServer(app: RequestListener, deps: Omit<SlowReaderDeps, 'onStart'>): Server {
  const server = createServer(
    { headersTimeout: HEADERS_TIMEOUT_MS, requestTimeout: REQUEST_TIMEOUT_MS, ...PARSER_OPTIONS },
    answerInTurn(app, { ...deps, onStart: (req, res) => server.emit(ANSWER_STARTED, req, res) }),
  );
  return server;
}
