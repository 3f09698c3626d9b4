/**
 * The realtime connection (spec section 1, decisions.md #9): opened after login, socket.io on
 * its standard path /socket.io with the client's reconnection defaults; the session machine
 * signs in with the user id ('sign-in') each time it connects. server/realtime.ts pushes order
 * status changes as 'order.status'; they reach the payment machines through watchOrderStatus.
 * socket.io-client is loaded lazily: the first view never pays for it.
 *
 * The connection's state is kept here too, for a watch that must know when no push can come
 * (`onRealtimeUnavailable`): socket.io-client's own attempts failing in a row
 * (`connect_error`, ATTEMPTS_BEFORE_UNAVAILABLE times without a `connect`), the server refusing or
 * closing the connection (a `connect_error` or `disconnect` after which the socket is no longer
 * `active`: socket.io-client does not try again by itself, as after 'io server disconnect'), the
 * server refusing the sign-in ('sign-in-error'), or socket.io-client failing to load.
 *
 * A connection that dropped and signed in again (`onRealtimeRejoined`) may have missed pushes: the
 * server does not replay them (socket.io's PostgreSQL adapter has no connection state recovery),
 * so a watch then has its order read at once. A dropped connection is only back once the server
 * has answered the sign-in (the socket is in the user's room again), not at its `connect`. A
 * watch that began before the first accepted sign-in heard nothing of what changed meanwhile
 * either: `onRealtimeJoined` hears of that first sign-in too (the order list, which has no poll of
 * its own while pushes can come, reads its orders then; a payment machine's own poll covers it).
 */
import type { Socket, io as ioFn } from 'socket.io-client';
import type { OrderPaymentStatus } from '../../machines/shared/api';

/** Event names shared with server/realtime.ts. */
export const REALTIME_EVENTS = {
  signIn: 'sign-in',
  orderStatus: 'order.status',
  /** The server's answer to a sign-in it refuses (the session is not that user's, or is gone). */
  signInError: 'sign-in-error',
} as const;

export const SOCKET_OPTIONS = {
  path: '/socket.io',
  reconnection: true,
  reconnectionAttempts: Infinity,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  timeout: 20000,
  withCredentials: true,
} as const;

export interface OrderStatusPush {
  orderId: number;
  payment_status: OrderPaymentStatus;
}

type Listener = (push: OrderStatusPush) => void;
export type SocketLoader = () => Promise<{ io: typeof ioFn }>;

/**
 * Failed connection attempts in a row after which a watch gives up on pushes: the first attempt
 * and two of socket.io-client's reconnections (with SOCKET_OPTIONS' delays, about 1.5-4.5 s after
 * the first failure). The socket itself keeps trying (its attempts are unlimited); a watch that gave
 * up leaves the order to its poll.
 */
export const ATTEMPTS_BEFORE_UNAVAILABLE = 3;

const listeners = new Set<Listener>();
const downListeners = new Set<(why: string) => void>();
const rejoinListeners = new Set<() => void>();
/** The connection dropped since the server last accepted a sign-in: pushes may have been missed. */
let dropped = false;
/** The server has accepted a sign-in of this socket (it has been in the user's room). */
let joined = false;
const joinListeners = new Set<() => void>();
let socket: Socket | null = null;
let connecting: Promise<Socket> | null = null;
/** Connection attempts failed since the last connect. */
let failedAttempts = 0;
/** Why no push can come until the socket connects again (null while it may). */
let lost: string | null = null;

function setLost(why: string): void {
  lost = why;
  for (const l of [...downListeners]) l(why);
}

/** Follows the socket's connection (see the file's comment). */
function followConnection(s: Socket): void {
  s.on('connect', () => {
    failedAttempts = 0;
    lost = null;
  });
  s.on('connect_error', (err: Error) => {
    failedAttempts += 1;
    // not active: the server refused the connection (socket.io-client does not try again)
    if (!s.active) setLost(`the server refused the connection (${err.message})`);
    else if (failedAttempts >= ATTEMPTS_BEFORE_UNAVAILABLE) setLost(`${failedAttempts} connection attempts failed (${err.message})`);
  });
  s.on('disconnect', (reason: string) => {
    dropped = true;
    // 'io server disconnect' (or the page's own disconnect): socket.io-client does not reconnect
    if (!s.active) setLost(`disconnected: ${reason}`);
  });
  s.on(REALTIME_EVENTS.signInError, () => setLost('the server refused the sign-in'));
}

function readPush(raw: unknown): OrderStatusPush | null {
  if (raw === null || typeof raw !== 'object') return null;
  const r = raw as { orderId?: unknown; order_id?: unknown; payment_status?: unknown; paymentStatus?: unknown };
  const orderId = Number(r.orderId ?? r.order_id);
  const status = r.payment_status ?? r.paymentStatus;
  if (!Number.isInteger(orderId) || typeof status !== 'string') return null;
  return { orderId, payment_status: status as OrderPaymentStatus };
}

const defaultLoader: SocketLoader = () => import('socket.io-client');

/** Opens the one connection (lazily loading socket.io-client); later calls get the same socket. */
export function openRealtime(load: SocketLoader = defaultLoader): Promise<Socket> {
  if (socket) return Promise.resolve(socket);
  connecting ??= load().then(
    ({ io }) => {
      const s = io({ ...SOCKET_OPTIONS });
      followConnection(s);
      s.on(REALTIME_EVENTS.orderStatus, (raw: unknown) => {
        const push = readPush(raw);
        if (push) for (const l of [...listeners]) l(push);
      });
      socket = s;
      return s;
    },
    (err: unknown) => {
      setLost(`socket.io-client could not be loaded (${err instanceof Error ? err.message : String(err)})`);
      throw err;
    },
  );
  return connecting;
}

/**
 * Signs the connection in as this user (the server checks it against the session cookie). Once the
 * server accepts a sign-in that follows a drop, the rejoin listeners hear of it.
 */
export function realtimeSignIn(userId: number): void {
  socket?.emit(REALTIME_EVENTS.signIn, { userId }, (answer?: { ok?: boolean }) => {
    if (answer?.ok !== true) return;
    const first = !joined;
    joined = true;
    if (!first && !dropped) return;
    const back = dropped;
    dropped = false;
    for (const l of [...joinListeners]) l();
    if (back) for (const l of [...rejoinListeners]) l();
  });
}

export function closeRealtime(): void {
  socket?.disconnect();
  socket = null;
  connecting = null;
  failedAttempts = 0;
  lost = null;
  dropped = false;
  joined = false;
}

export function isRealtimeOpen(): boolean {
  return socket !== null;
}

export function onOrderStatus(listener: Listener): () => void {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/**
 * Calls `listener` once no push can come (at once when that is already so): see the file's
 * comment. A socket not opened yet is not a lost one (the session opens it after login).
 */
export function onRealtimeUnavailable(listener: (why: string) => void): () => void {
  if (lost !== null) {
    listener(lost);
    return () => {};
  }
  downListeners.add(listener);
  return () => {
    downListeners.delete(listener);
  };
}

/** Calls `listener` each time the connection is back after a drop (see the file's comment). */
export function onRealtimeRejoined(listener: () => void): () => void {
  rejoinListeners.add(listener);
  return () => {
    rejoinListeners.delete(listener);
  };
}

/**
 * Calls `listener` when the server accepts the socket's first sign-in and each time the connection
 * is back after a drop: each time pushes sent before it may have gone unheard (see the file's comment).
 */
export function onRealtimeJoined(listener: () => void): () => void {
  joinListeners.add(listener);
  return () => {
    joinListeners.delete(listener);
  };
}

/** Delivers a push as if the server sent it (tests). */
export function deliverOrderStatus(push: OrderStatusPush): void {
  for (const l of [...listeners]) l(push);
}
