/**
 * Liveness and readiness for the load balancer and the orchestrator (issue 14), outside the API
 * contract (not in openapi.yaml; plain JSON, not the error envelope):
 *  - GET /healthz: 200 { status: 'ok' } while the process runs (liveness: restart it when this fails).
 *  - GET /readyz: 200 { status: 'ready', db } when the database answers `SELECT 1` within 2 s;
 *    503 { status: 'unavailable', reason } when it does not, or while the process is draining for
 *    shutdown (main.ts), so the balancer stops sending it new requests.
 * Both are registered before the not-found handler's API fallback can see them and are never cached.
 * While draining, every answer carries `Connection: close`: a keep-alive connection whose request
 * was in flight closes once answered, so the server's close() is not kept waiting by it.
 */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from './context';

export interface Health {
  /** True once shutdown has begun: /readyz answers 503. */
  draining: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    health: Health;
  }
}

export const READY_TIMEOUT_MS = 2000;

export function registerHealth(app: FastifyInstance, ctx: AppContext): Health {
  const health: Health = { draining: false };
  app.decorate('health', health);
  app.addHook('onSend', async (_req, reply, payload) => {
    if (health.draining) reply.header('connection', 'close');
    return payload;
  });
  const opts = { logLevel: 'warn' as const };
  app.get('/healthz', opts, async (_req, reply) => reply.header('cache-control', 'no-store').send({ status: 'ok' }));
  app.get('/readyz', opts, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    if (health.draining) return reply.code(503).send({ status: 'unavailable', reason: 'shutting down' });
    let timer: NodeJS.Timeout | undefined;
    try {
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
      });
      await Promise.race([ctx.db.query('SELECT 1'), timeout]);
      return reply.send({ status: 'ready', db: ctx.db.kind });
    } catch (err) {
      return reply.code(503).send({ status: 'unavailable', reason: `database: ${(err as Error).message}` });
    } finally {
      clearTimeout(timer);
    }
  });
  return health;
}
