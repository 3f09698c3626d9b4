/**
 * The realtime connection (spec section 1, decisions.md #9): opened after login, socket.io on
 * its standard path /socket.io with the client's reconnection defaults; the session machine
 * signs in with the user id ('sign-in') each time it connects. server/realtime.ts pushes order
 * status changes as 'order.status'; they reach the payment machines through watchOrderStatus.
 * socket.io-client is loaded lazily: the first view never pays for it.
 */
import type { Socket, io as ioFn } from 'socket.io-client';
import type { OrderPaymentStatus } from '../../machines/shared/api';

/** Event names shared with server/realtime.ts. */
export const REALTIME_EVENTS = {
  signIn: 'sign-in',
  orderStatus: 'order.status',
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

const listeners = new Set<Listener>();
let socket: Socket | null = null;
let connecting: Promise<Socket> | null = null;

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
  connecting ??= load().then(({ io }) => {
    const s = io({ ...SOCKET_OPTIONS });
    s.on(REALTIME_EVENTS.orderStatus, (raw: unknown) => {
      const push = readPush(raw);
      if (push) for (const l of [...listeners]) l(push);
    });
    socket = s;
    return s;
  });
  return connecting;
}

/** Signs the connection in as this user (the server checks it against the session cookie). */
export function realtimeSignIn(userId: number): void {
  socket?.emit(REALTIME_EVENTS.signIn, { userId });
}

export function closeRealtime(): void {
  socket?.disconnect();
  socket = null;
  connecting = null;
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

/** Delivers a push as if the server sent it (tests). */
export function deliverOrderStatus(push: OrderStatusPush): void {
  for (const l of [...listeners]) l(push);
}
