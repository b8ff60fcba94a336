// The server event that says a request has been handed to the app (its answer is being made):
// emitted by the slow-reader gate (http/http-server.ts, http/slow-readers.ts), which may keep
// a request waiting for its turn after Node has read it; the connection table counts a
// connection busy from then (http/connection-limits.ts), so one whose requests only wait can
// still make room for a newcomer. Its own file so that both import it without a cycle.

/** Emitted on the HTTP server with (req, res) as the app is handed the request. */
export const ANSWER_STARTED = 'sms-gateway:answer-started';
