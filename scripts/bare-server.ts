// The floor for this stack, used by scripts/bench.ts: a bare Fastify server that answers
// GET /health with the same JSON as the gateway, with no hooks, no schemas, no logger.
// Usage: node dist-scripts/bare-server.js <port> <version>   (listens on 127.0.0.1 only)
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 8089);
const version = process.argv[3] ?? '0.0.0';
const health = {
  status: 'ok',
  version,
  smsEnabled: true,
  mode: 'simulated',
  simulation: 'success',
  testMode: true,
};

const app = Fastify({ logger: false });
app.get('/health', async () => health);

await app.listen({ port, host: '127.0.0.1' });

const stop = () => {
  void app.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
