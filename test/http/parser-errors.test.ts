import t from 'tap';
import { Socket } from 'node:net';
import { parserErrorAnswer, answerParserError } from '../../src/http/parser-errors.js';

const err = (code: string) => Object.assign(new Error(code), { code });

t.test('a public peer gets the guard, a local one the envelope', async (t) => {
  t.same(parserErrorAnswer(err('HPE_INVALID_METHOD'), '203.0.113.9'), {
    status: 403,
    body: '{"error":"Forbidden: local network access only"}',
  });
  t.same(parserErrorAnswer(err('HPE_INVALID_METHOD'), undefined).status, 403);
  const bad = parserErrorAnswer(err('HPE_INVALID_METHOD'), '192.168.1.5');
  t.equal(bad.status, 400);
  t.same(JSON.parse(bad.body), {
    success: false,
    smsSent: false,
    error: { code: 'invalid_request', message: 'The request is not valid HTTP.' },
  });
  t.equal(parserErrorAnswer(err('ERR_HTTP_REQUEST_TIMEOUT'), '::1').status, 408);
  t.equal(parserErrorAnswer(err('HPE_HEADER_OVERFLOW'), '::ffff:10.0.0.2').status, 431);
});

t.test('the answer is written once and the socket closed; a reset socket is left alone', async (t) => {
  const written: string[] = [];
  let destroyed = 0;
  // Just what answerParserError touches of a socket.
  const socket = {
    destroyed: false,
    writable: true,
    remoteAddress: '127.0.0.1',
    write: (s: string) => written.push(s) > 0,
    destroy: () => {
      destroyed++;
    },
  } as unknown as Socket;
  answerParserError(err('HPE_INVALID_METHOD'), socket);
  t.equal(written.length, 1);
  t.match(
    written[0],
    /^HTTP\/1\.1 400 Bad Request\r\nContent-Type: application\/json\r\nContent-Length: \d+\r\nConnection: close\r\n\r\n\{"success":false/,
  );
  t.equal(destroyed, 1);
  answerParserError(err('ECONNRESET'), socket);
  t.equal(written.length, 1, 'nothing written to a reset connection');
  t.equal(destroyed, 1);
});
