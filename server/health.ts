/**
 * Liveness and readiness for the load balancer and the orchestrator, outside the API
 * contract (not in openapi.yaml; plain JSON, not the error envelope):
 *  - GET /healthz: 200 { status: 'ok' } while the process runs (liveness: restart it when this fails).
 *  - GET /readyz: 200 { status: 'ready', db } when the database answers `SELECT 1` within 2 s;
 *    503 { status: 'unavailable', reason } when it does not, or while the process is draining for
 *    shutdown (main.ts), so the balancer stops sending it new requests.
 * Both are registered before the not-found handler's API fallback can see them and are never cached.
 * While the database is unreachable every API call that needs it answers 503 SERVICE_UNAVAILABLE
 * (server/db/index.ts DatabaseUnavailableError) and /readyz says not ready; both carry Retry-After.
 * When it is back, the next request opens new connections: no restart.
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
/** Retry-After of a 503 answer (seconds). */
export const RETRY_AFTER_SECONDS = 2;

export function registerHealth(app: FastifyInstance, ctx: AppContext): Health {
  const health: Health = { draining: false };
  app.decorate('health', health);
  app.addHook('onSend', async (_req, reply, payload) => {
    if (health.draining) reply.header('connection', 'close');
    // 503 (the database is unreachable for a moment, or draining): tell clients when to retry.
    if (reply.statusCode === 503 && !reply.hasHeader('retry-after')) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
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
