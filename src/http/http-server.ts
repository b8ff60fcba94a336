// The slow-reader gate on the gateway's Node HTTP server (server/app.ts): Fastify makes the
// server with the parser options and deadlines it is given (http/connection-limits.ts,
// request-deadline.ts), and this puts the gate (http/slow-readers.ts) between that server and
// Fastify's handler, saying on the server when it hands a request to the app
// (http/answer-started.ts). Not Fastify's serverFactory: with one, Fastify sets none of the
// server's options itself, and the gateway's first answer came with http2's zlib and undici
// loaded (test/e2e/start-footprint.test.ts).
import type { RequestListener, Server } from 'node:http';
import { ANSWER_STARTED } from './answer-started.js';
import { answerInTurn, type SlowReaderDeps } from './slow-readers.js';

/** Routes every request of `server` through the slow-reader gate to the handlers it had. */
export function gateAnswers(server: Server, deps: Omit<SlowReaderDeps, 'onStart'>): void {
  const handlers = server.listeners('request') as RequestListener[];
  server.removeAllListeners('request');
  const app: RequestListener = (req, res) => {
    for (const handler of handlers) handler.call(server, req, res);
  };
  server.on('request', answerInTurn(app, { ...deps, onStart: (req, res) => server.emit(ANSWER_STARTED, req, res) }));
}
