/**
 * Realtime push on the app's own HTTP server (socket.io, path /socket.io, decisions.md #9).
 * A client connects after login and emits 'sign-in' with its user id; it is accepted only when the
 * id is the session user's (cookie `sid` of the handshake), and then joins the room `user:<id>`.
 * Every order status change (`order.statusChanged`) is pushed to that room as 'order.status'
 * { orderId, status, payment_status }. A socket signed in as someone else receives nothing.
 *
 * Several processes: on PostgreSQL the socket.io PostgreSQL adapter (LISTEN/NOTIFY on
 * its own small pool, large payloads in table socket_io_attachments) carries every room emit to
 * all processes, so a status change committed on process A reaches a buyer whose socket is on
 * process B. PGlite is single-process: the default in-memory adapter.
 * A lost LISTEN connection (PostgreSQL restarted, the connection killed) is survived and LISTENed
 * again by itself (listenerSafePool); pushes sent while it was down are not replayed.
 * Nor are pushes sent while a client was disconnected (the adapter has no connection state
 * recovery): 'sign-in' is acknowledged ({ ok }) once the socket is in the user's room, and the
 * client reads the order when a sign-in after a drop is acknowledged (src/api/realtime.ts).
 */
import type { FastifyInstance } from 'fastify';
import { Server, type Socket } from 'socket.io';
import { createAdapter } from '@socket.io/postgres-adapter';
import pg from 'pg';
import type { AppContext } from './context';
import { APP_NAME, poolLimits, REALTIME_POOL_MAX } from './db/index';
import { findSession, SESSION_COOKIE } from './auth/sessions';

export interface Realtime {
  io: Server;
  /** Sockets signed in as this user (tests and the back office). */
  countFor(userId: number): Promise<number>;
  close(): Promise<void>;
}

export interface OrderStatusMessage {
  orderId: number;
  status: string;
  payment_status: string;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    if (part.slice(0, i).trim() === name) {
      try {
        return decodeURIComponent(part.slice(i + 1).trim());
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

function requestedId(payload: unknown): number {
  if (typeof payload === 'number' || typeof payload === 'string') return Number(payload);
  if (payload && typeof payload === 'object') {
    const p = payload as Record<string, unknown>;
    return Number(p.userId ?? p.user_id ?? p.id);
  }
  return NaN;
}

/**
 * The pool as the PostgreSQL adapter sees it. The adapter keeps one connection checked out for
 * its LISTEN and never gives it an 'error' listener (pg-pool removes its own while a connection is
 * checked out): a PostgreSQL restart or pg_terminate_backend would end the process with an
 * unhandled 'error' event. Here every connection gets a listener for its whole life, and when the
 * LISTEN connection ends it goes back to the pool as broken (the pool drops it and has room for a
 * new one); the adapter itself then reconnects and LISTENs again (its 'end' handler, every ~2 s
 * until PostgreSQL answers).
 */
function listenerSafePool(pool: pg.Pool, ctx: AppContext): pg.Pool {
  pool.on('connect', (client) => {
    client.on('error', (err) => ctx.log.warn({ err: err.message }, 'realtime: connection lost'));
  });
  const facade = {
    query: pool.query.bind(pool),
    async connect(): Promise<pg.PoolClient> {
      const client = await pool.connect();
      const release = client.release;
      let released = false;
      const once = (err?: Error | boolean) => {
        if (released) return;
        released = true;
        release.call(client, err);
      };
      client.once('end', () => once(new Error('realtime LISTEN connection ended')));
      client.release = once;
      return client;
    },
  };
  return facade as unknown as pg.Pool;
}

export function attachRealtime(app: FastifyInstance, ctx: AppContext): Realtime {
  const io = new Server(app.server, { path: '/socket.io', serveClient: false });
  let pool: pg.Pool | null = null;
  if (ctx.db.kind === 'postgres' && ctx.db.url) {
    const limits = poolLimits();
    pool = new pg.Pool({ connectionString: ctx.db.url, max: REALTIME_POOL_MAX, connectionTimeoutMillis: limits.connectTimeoutMs, idleTimeoutMillis: limits.idleTimeoutMs, application_name: APP_NAME.realtime });
    pool.on('error', (err) => ctx.log.warn({ err: err.message }, 'realtime: an idle connection was lost'));
    io.adapter(createAdapter(listenerSafePool(pool, ctx), { errorHandler: (err) => ctx.log.warn({ err: err.message }, 'realtime adapter error') }));
  }

  io.on('connection', (socket: Socket) => {
    const sid = cookieValue(socket.handshake.headers.cookie, SESSION_COOKIE);
    socket.on('sign-in', async (payload: unknown, ack?: (r: { ok: boolean; error?: string }) => void) => {
      const answer = typeof ack === 'function' ? ack : () => undefined;
      try {
        const wanted = requestedId(payload);
        // The session is looked up at sign-in time: a logged-out or expired session is refused.
        const user = await findSession(ctx.db, sid, ctx.clock.now(), ctx.config.sessionIdleMinutes);
        for (const room of socket.rooms) if (room.startsWith('user:')) await socket.leave(room);
        if (!user || user.off_whitelist || !Number.isSafeInteger(wanted) || user.id !== wanted) {
          socket.emit('sign-in-error', { error: 'FORBIDDEN' });
          answer({ ok: false, error: 'FORBIDDEN' });
          return;
        }
        await socket.join(`user:${user.id}`);
        answer({ ok: true });
      } catch (err) {
        ctx.log.error({ err }, 'socket sign-in failed');
        answer({ ok: false, error: 'INTERNAL_ERROR' });
      }
    });
  });

  const off = ctx.events.on('order.statusChanged', (e) => {
    const msg: OrderStatusMessage = { orderId: e.orderId, status: e.status, payment_status: e.paymentStatus };
    io.to(`user:${e.userId}`).emit('order.status', msg);
  });

  let closed = false;
  return {
    io,
    async countFor(userId) {
      return (await io.in(`user:${userId}`).fetchSockets()).length;
    },
    async close() {
      if (closed) return;
      closed = true;
      off();
      // Only this process's sockets (io.disconnectSockets would reach every process via the adapter).
      io.local.disconnectSockets(true);
      io.engine.close();
      // Closes the adapter (LISTEN client, heartbeat and clean-up timers) before its pool.
      await io.of('/').adapter.close();
      await pool?.end();
    },
  };
}
