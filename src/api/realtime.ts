/**
 * The realtime connection (spec section 1, decisions.md #9): opened after login, socket.io on
 * its standard path /socket.io with the client's reconnection defaults, a sign-in emitting the
 * user id on every (re)connect. socket.io-client is loaded lazily: the first view never pays for it.
 * Order status pushes reach the payment machines through the watchOrderStatus actor.
 */
import type { Socket, io as ioFn } from 'socket.io-client';
import type { OrderPaymentStatus } from '../../machines/shared/api';

/** Event names shared with server/realtime.ts. */
export const REALTIME_EVENTS = {
  signIn: 'signin',
  orderStatus: 'order.statusChanged',
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
  transports: ['websocket', 'polling'],
} as const;

export interface OrderStatusPush {
  orderId: number;
  payment_status: OrderPaymentStatus;
}

type Listener = (push: OrderStatusPush) => void;

const listeners = new Set<Listener>();
let socket: Socket | null = null;
let connecting: Promise<Socket> | null = null;
let signedInAs: number | null = null;

function readPush(raw: unknown): OrderStatusPush | null {
  if (raw === null || typeof raw !== 'object') return null;
  const r = raw as { orderId?: unknown; order_id?: unknown; payment_status?: unknown; paymentStatus?: unknown };
  const orderId = Number(r.orderId ?? r.order_id);
  const status = r.payment_status ?? r.paymentStatus;
  if (!Number.isInteger(orderId) || typeof status !== 'string') return null;
  return { orderId, payment_status: status as OrderPaymentStatus };
}

/** Opens (once) the connection and signs in with the user id; later calls switch the user. */
export function connectRealtime(userId: number, load: () => Promise<{ io: typeof ioFn }> = () => import('socket.io-client')): Promise<Socket> {
  signedInAs = userId;
  if (socket) {
    if (socket.connected) socket.emit(REALTIME_EVENTS.signIn, { userId });
    return Promise.resolve(socket);
  }
  connecting ??= load().then(({ io }) => {
    const s = io({ ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports] });
    s.on('connect', () => {
      if (signedInAs !== null) s.emit(REALTIME_EVENTS.signIn, { userId: signedInAs });
    });
    s.on(REALTIME_EVENTS.orderStatus, (raw: unknown) => {
      const push = readPush(raw);
      if (push) for (const l of [...listeners]) l(push);
    });
    socket = s;
    return s;
  });
  return connecting;
}

export function disconnectRealtime(): void {
  signedInAs = null;
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

/** For tests and the sandbox: deliver a push as if the server sent it. */
export function deliverOrderStatus(push: OrderStatusPush): void {
  for (const l of [...listeners]) l(push);
}
