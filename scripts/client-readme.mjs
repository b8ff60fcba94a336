// The README of the sms-gateway-client package (written by pack-client.mjs): what the
// package is and every method of createClient, each with a one-line example.
// test/scripts/client-readme.test.ts checks that no method is left out.
export const clientReadme = (name, version) => `# ${name}

The typed client for sms-gateway (an SMS gateway on an Android phone) on your local network: \`createClient\`,
\`GatewayRequestError\` and the answer types. No dependencies, no native build; Node 22 or newer
(it uses \`fetch\`). Built from sms-gateway ${version} with \`npm run pack:client\`.

\`\`\`ts
import { createClient, GatewayRequestError } from '${name}';
const gw = createClient({ baseUrl: 'http://192.168.1.50:8080', apiKey: 'sk_local_...' });
\`\`\`

\`baseUrl\` and \`apiKey\` (\`sms-gateway key show\` on the phone) are needed; \`maxRetries\`,
\`maxWaitSeconds\` and \`timeoutMs\` are optional. Every method returns a promise; a
refusal throws \`GatewayRequestError\` (\`status\`, \`code\`, \`message\`, \`retryAfterSeconds\`; status 0 and
code \`unreachable\` when no answer came; \`GatewayError\` is its former name, kept as a deprecated alias), and
every call retries 429s and 503s with Retry-After (\`send\` and \`queue\` keep their Idempotency-Key).
\`send\` and \`queue\` take \`tags\` (at most 8 labels, kept with the message and returned in a reply's
\`inReplyTo\`). \`messages\` and \`inbox\` take a search: \`q\` (a number, from its start when written with a
leading +, or a part of the text, any case), \`since\` (inclusive) and \`until\` (exclusive) as ISO 8601 strings
with a zone or as Dates.

## Every method

\`\`\`ts
// Sending
const sent = await gw.send({ to: '+15551234567', message: 'Door opened', tags: { alarm: 'door' } }); // one SMS now; waits for the phone's answer; tags come back in its record and a reply's inReplyTo
const queued = await gw.queue({ to: ['+15551234567', '+442071234567'], message: 'Backup done', sendAt: new Date(Date.now() + 60_000) }); // queued records, sent at the gateway's pace
const cancelled = await gw.cancel(queued[0]!.id); // a queued message whose hand-off has not started

// Reading what was sent
const page = await gw.messages({ limit: 20, status: 'failed', q: 'garage', since: new Date(Date.now() - 7 * 86_400_000) }); // the history, newest first, with pagination; q, since, until search it
const one = await gw.message(sent.messageId); // one message's record
const stats = await gw.stats(); // counts today, this month, and the SMS budget

// Receiving
const inbox = await gw.inbox({ limit: 10, from: '+15551234567', q: 'stop', until: '2026-12-01T00:00:00Z' }); // received SMS, newest first (503 inbox_disabled while not read)

// Webhook targets
const targets = await gw.webhooks(); // every target: from SMS_GATEWAY_WEBHOOK_URLS and registered over the API
const target = await gw.addWebhook('http://192.168.1.20:1880/sms'); // register a target (the same URL again: the existing one)
await gw.removeWebhook(target.id); // remove a target registered over the API
const results = await gw.testWebhooks(); // the signed gateway.test event to every target, one result each

// The gateway itself
const health = await gw.health(); // no key needed: up, version, mode
const diagnostics = await gw.read<{ status: string }>('/api/diagnostics'); // any read endpoint's data (/api/host/info, /api/diagnostics)
\`\`\`

\`\`\`ts
try {
  await gw.send({ to: '+15551234567', message: 'hi' });
} catch (err) {
  if (err instanceof GatewayRequestError) console.error(err.status, err.code, err.message);
}
\`\`\`

See sms-gateway's docs/api.md, "How do I call it from my own code (the client package)?", and \`GET /openapi.json\` on the gateway.
`;
