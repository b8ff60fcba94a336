// The doctor's port check: can the gateway listen on its port (dual stack, IPv4 when the
// phone has no IPv6)? When the port is taken, GET /health tells a running gateway from
// another program.
import { createServer } from 'node:net';
import { request } from 'node:http';
import { PORT } from '../../core/runtime.js';
import type { Finding } from './report.js';

const HEALTH_TIMEOUT_MS = 2000;

type PortState = { free: true; host: string } | { free: false; error: NodeJS.ErrnoException };

function tryListen(host: string): Promise<PortState> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => resolve({ free: false, error }));
    server.listen({ port: PORT, host, exclusive: true }, () => server.close(() => resolve({ free: true, host })));
  });
}

/** GET /health on loopback; the parsed JSON body of a 200, else undefined. */
function getHealth(): Promise<unknown> {
  return new Promise((resolve) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: PORT,
        path: '/health',
        agent: false,
        timeout: HEALTH_TIMEOUT_MS,
        headers: { connection: 'close' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => {
          body += d;
          if (body.length > 64 * 1024) req.destroy();
        });
        res.on('end', () => {
          try {
            resolve(res.statusCode === 200 ? JSON.parse(body) : undefined);
          } catch {
            resolve(undefined);
          }
        });
        res.on('error', () => resolve(undefined));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(undefined));
    req.end();
  });
}

export async function portCheck(): Promise<Finding> {
  const name = `port ${PORT}`;
  let state = await tryListen('::');
  // No IPv6 on this phone: the gateway binds IPv4 only, so test that.
  if (!state.free && (state.error.code === 'EAFNOSUPPORT' || state.error.code === 'EADDRNOTAVAIL'))
    state = await tryListen('0.0.0.0');
  if (state.free) return { status: 'ok', name, finding: `free (listened on ${state.host} and closed)` };
  if (state.error.code !== 'EADDRINUSE') {
    return {
      status: 'fail',
      name,
      finding: `cannot listen on port ${PORT}: ${state.error.code ?? state.error.message}`,
      fix: ['run sms-gateway inside Termux as its own user (not through su)'],
    };
  }
  const health = await getHealth();
  if (health && typeof health === 'object') {
    const h = health as { status?: unknown; version?: unknown };
    if (h.status === 'ok' && typeof h.version === 'string') {
      return { status: 'ok', name, finding: `a gateway is already running on port ${PORT} (version ${h.version})` };
    }
  }
  return {
    status: 'fail',
    name,
    finding: `port ${PORT} is used by another program (it does not answer /health like a gateway)`,
    fix: [
      `stop the other program that listens on port ${PORT} (the gateway's port is fixed); \`ss -ltnp 'sport = ` +
        `:${PORT}'\` shows which`,
    ],
  };
}
