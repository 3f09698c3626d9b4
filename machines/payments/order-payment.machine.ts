/**
 * Pay again, on the same order (spec 4 "on payment failure the action flag resets and the
 * user stays"): the order list (and the course page's "continue paying order #N") pays an unpaid
 * order with any method allowed for it, or cancels it. One actor per page, idle until asked (or
 * started with `payOrderId`, the route's `?pay=` link: it asks itself `order.pay` once, at start):
 * - `order.pay { orderId }`: the order is read (getOrder) — only an unpaid one goes on — then its
 *   methods (getPaymentMethodsForOrder); the buyer chooses (`method.choose`) and pays
 *   (`payment.start`) with the method's machine from `methods.ts`; no new order is made;
 * - a free order (total 0) left unrecorded (the checkout's free report got no answer and the buyer
 *   left) has nothing to pay: it is recorded by its free report (createPaymentReportPublic), as the
 *   checkout records it, then read again; not recorded, the buyer is told and may ask again;
 * - a payment that did not pay re-reads the order and shows why (`failed`): `payment.retry` (same
 *   method, a new attempt: a new QR, a new card), `payment.changeMethod`, `order.cancel`;
 * - paid or handed over (bank-transfer notice): the thank-you page or the list again;
 * - `payment.leave` closes the payment from anywhere: the order stays payable;
 * - `order.cancel { orderId? }` asks first (`cancel.confirm` / `cancel.dismiss`), then deleteOrder,
 *   which gives back seats, stock and coupon uses.
 */
import { assign, enqueueActions, setup } from 'xstate';
import { providedByApp } from '../shared/provided';
import type { components } from '../../generated/api';
import { isFreeOrder } from '../../domain/money';
import { isPayable } from '../../domain/order-outcome';
import { MSG } from '../../domain/messages';
import type { DeleteOrderRequest, Order, OrderIdBody, PaymentMethodId, PaymentReportPublic, PaymentReportResponse, SessionUser, SuccessResponse } from '../shared/api';
import { effectDefaults, ROUTES } from '../shared/effects';
import { thaiLocalNow } from '../shared/time';
import { endsFor, METHOD_ACTORS, PAYMENT_MACHINES, payingStates, type PaymentActorId } from './methods';
import { freeOrderReport, PAYMENT_FAILED_NOTICE, type OrderRead, type PaymentOrder, type PaymentOutput } from './payment';

export interface OrderPaymentInput {
  user: SessionUser | null;
  /** is_thank_you_page: after a payment, the thank-you page (else the order list again). */
  thankYouPage: boolean;
  /** A payment slip is required for bank transfers. */
  slipRequired: boolean;
  /** The route was opened to pay this order (`?pay={orderId}`): the machine starts its payment once. */
  payOrderId?: number | null;
}

export interface PayableMethod {
  id: number;
  name: string;
  /** Bank transfer (1): the shop's accounts. */
  bankList?: components['schemas']['PaymentMethod']['bankList'];
}

export interface OrderPaymentContext extends OrderPaymentInput {
  orderId: number | null;
  /** The order as last read from the server (its outcome is what the buyer is told). */
  order: Order | null;
  methods: PayableMethod[];
  methodId: number | null;
}

export type OrderPaymentEvent =
  | { type: 'order.pay'; orderId: number }
  | { type: 'order.cancel'; orderId?: number }
  | { type: 'method.choose'; methodId: number }
  | { type: 'payment.start' }
  | { type: 'payment.retry' }
  | { type: 'payment.changeMethod' }
  | { type: 'payment.leave' }
  | { type: 'cancel.confirm' }
  | { type: 'cancel.dismiss' };

export interface MethodsRead {
  success: true;
  data: components['schemas']['PaymentMethod'][];
}

/** The order as the method's machine takes it (amounts are the server's). */
export function payingOrder(context: OrderPaymentContext): PaymentOrder {
  const o = context.order as Order;
  const user = context.user;
  return {
    orderId: o.id,
    orderToken: o.order_token,
    amount: o.total_amount,
    currency: o.currency_code,
    methodId: context.methodId as PaymentMethodId,
    email: o.email || user?.email || '',
    name: user ? `${user.firstname} ${user.lastname}`.trim() : '',
    tel: o.tel,
  };
}

/** The free order's report: the same as the checkout's (the server decides AutoFree or NeedApprovedFree from the order's plans). */
function freeReport(context: OrderPaymentContext): PaymentReportPublic {
  const o = context.order as Order;
  const user = context.user;
  return freeOrderReport({ id: o.id, token: o.order_token }, { name: user ? `${user.firstname} ${user.lastname}`.trim() : '', email: o.email || user?.email || '' });
}

function paymentInput(context: OrderPaymentContext, id: PaymentActorId): unknown {
  const order = payingOrder(context);
  if (id === 'gbPrimeCard') return { order, thankYouPage: context.thankYouPage };
  if (id !== 'bankTransfer') return { order };
  const local = thaiLocalNow();
  const user = context.user;
  return {
    order,
    slipRequired: context.slipRequired,
    canNotifyLater: !user?.is_non_member,
    defaults: { contact_name: user ? `${user.firstname} ${user.lastname}`.trim() : '', tel: context.order?.tel ?? '', transfer_datetime: local.date, time: local.time },
  };
}

const stateOf = (order: Order | null) => order?.outcome?.state ?? (order?.payment_status === 'approved' ? 'paid' : order?.payment_status === 'pendingApproved' ? 'awaitingApproval' : order?.payment_status === 'rejected' ? 'rejected' : 'awaitingPayment');

const readOrder = ({ event }: { event: { output: unknown } }) => (event.output as OrderRead).data;

export const orderPaymentMachine = setup({
  types: {
    context: {} as OrderPaymentContext,
    events: {} as OrderPaymentEvent,
    input: {} as OrderPaymentInput,
  },
  actors: {
    getOrder: providedByApp<OrderRead, OrderIdBody>('getOrder'),
    getPaymentMethodsForOrder: providedByApp<MethodsRead, OrderIdBody>('getPaymentMethodsForOrder'),
    deleteOrder: providedByApp<SuccessResponse, DeleteOrderRequest>('deleteOrder'),
    createPaymentReportPublic: providedByApp<PaymentReportResponse, PaymentReportPublic>('createPaymentReportPublic'),
    ...PAYMENT_MACHINES,
  },
  guards: {
    payable: (_, order: Order) => isPayable(stateOf(order)),
    /** Payable and free: nothing to pay, only to record (spec 6). */
    freeToRecord: (_, order: Order) => isPayable(stateOf(order)) && isFreeOrder(order.total_amount),
    settled: (_, order: Order) => stateOf(order) === 'paid' || stateOf(order) === 'awaitingApproval',
    handedOver: (_, output: PaymentOutput) => output.result === 'paid' || output.result === 'pending',
    methodListed: ({ context }, methodId: number) => context.methods.some((m) => m.id === methodId),
    methodChosen: ({ context }) => context.methodId !== null && context.methods.some((m) => m.id === context.methodId),
    hasMethods: ({ context }) => context.methods.length > 0,
    thankYouPage: ({ context }) => context.thankYouPage,
  },
  actions: {
    ...effectDefaults,
    /** The order list reads the orders again (app: revalidate the page's data). */
    ordersChanged: () => {},
    forget: assign({ orderId: null, order: null, methods: [], methodId: null }),
    keepOrder: assign((_, order: Order) => ({ order })),
    keepMethods: assign(({ context }, read: MethodsRead) => {
      const methods = read.data.filter((m) => m.id in METHOD_ACTORS).map((m) => ({ id: m.id, name: m.name_web ?? m.name, ...(m.bankList ? { bankList: m.bankList } : {}) }));
      // The order's own method first when it is still allowed, else the first one.
      const own = context.order?.payment_method_id;
      const methodId = methods.some((m) => m.id === own) ? (own as number) : (methods[0]?.id ?? null);
      return { methods, methodId };
    }),
  },
}).createMachine({
  id: 'orderPayment',
  context: ({ input }) => ({ ...input, orderId: null, order: null, methods: [], methodId: null }),
  // Started for one order (the route's pay link): that order's payment is asked for, once.
  entry: enqueueActions(({ context, enqueue }) => {
    const orderId = context.payOrderId;
    if (typeof orderId === 'number' && Number.isSafeInteger(orderId) && orderId > 0) enqueue.raise({ type: 'order.pay', orderId });
  }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'order.pay': { target: 'loadingOrder', actions: ['forget', assign(({ event }) => ({ orderId: event.orderId }))] },
        'order.cancel': { target: 'confirmingCancel', actions: ['forget', assign(({ event }) => ({ orderId: event.orderId ?? null }))] },
      },
    },
    loadingOrder: {
      on: { 'payment.leave': { target: 'idle', actions: 'forget' } },
      invoke: {
        id: 'getOrder',
        src: 'getOrder',
        input: ({ context }) => ({ orderId: context.orderId as number }),
        onDone: [
          { guard: { type: 'freeToRecord', params: readOrder }, target: 'recordingFree', actions: { type: 'keepOrder', params: readOrder } },
          { guard: { type: 'payable', params: readOrder }, target: 'loadingMethods', actions: { type: 'keepOrder', params: readOrder } },
          // Paid, waiting for approval, cancelled or expired meanwhile: nothing to pay; the list shows it.
          { target: 'idle', actions: ['forget', 'ordersChanged'] },
        ],
        onError: { target: 'idle', actions: ['forget', { type: 'notify', params: PAYMENT_FAILED_NOTICE }] },
      },
    },
    /**
     * A free order left unrecorded: its free report. Recorded (approved, or waiting for the shop):
     * where a paid order ends, the thank-you page (which reads the order and says which) or the list.
     */
    recordingFree: {
      invoke: {
        id: 'createPaymentReportPublic',
        src: 'createPaymentReportPublic',
        input: ({ context }) => freeReport(context),
        onDone: { target: 'done' },
        // Still not recorded: said; the order stays on the list with its button, to ask again.
        onError: { target: 'idle', actions: ['forget', { type: 'notify', params: { kind: 'error', topic: 'fail', message: MSG.FREE_ORDER_NOT_RECORDED } }] },
      },
    },
    loadingMethods: {
      on: { 'payment.leave': { target: 'idle', actions: 'forget' } },
      invoke: {
        id: 'getPaymentMethodsForOrder',
        src: 'getPaymentMethodsForOrder',
        input: ({ context }) => ({ orderId: context.orderId as number }),
        onDone: { target: 'choosing', actions: { type: 'keepMethods', params: ({ event }) => event.output } },
        onError: { target: 'idle', actions: ['forget', { type: 'notify', params: PAYMENT_FAILED_NOTICE }] },
      },
    },
    choosing: {
      on: {
        'method.choose': { guard: { type: 'methodListed', params: ({ event }) => event.methodId }, actions: assign(({ event }) => ({ methodId: event.methodId })) },
        'payment.start': { guard: 'methodChosen', target: 'paying' },
        'order.cancel': { target: 'confirmingCancel' },
        'payment.leave': { target: 'idle', actions: 'forget' },
      },
    },
    paying: {
      on: { 'payment.leave': { target: 'idle', actions: ['forget', 'ordersChanged'] } },
      ...payingStates<OrderPaymentContext>({
        methodOf: (context) => context.methodId ?? undefined,
        input: paymentInput,
        // bank transfer's ends are all handed over ('pending'): it has the first only
        onDone: (id) =>
          endsFor(id, [
            [['paid', 'pending'], { guard: { type: 'handedOver', params: ({ event }: { event: { output: unknown } }) => event.output as PaymentOutput }, target: '#orderPayment.done' }],
            [['failed', 'toOrders'], { target: '#orderPayment.readingResult' }],
          ] as const),
        onError: { target: '#orderPayment.readingResult' },
      }),
    },
    /** The attempt did not pay: what does the server know now (a late success, or why it failed)? */
    readingResult: {
      invoke: {
        id: 'getOrder',
        src: 'getOrder',
        input: ({ context }) => ({ orderId: context.orderId as number }),
        onDone: [
          { guard: { type: 'settled', params: readOrder }, target: 'done', actions: { type: 'keepOrder', params: readOrder } },
          { guard: { type: 'payable', params: readOrder }, target: 'failed', actions: { type: 'keepOrder', params: readOrder } },
          { target: 'idle', actions: ['forget', 'ordersChanged'] },
        ],
        onError: { target: 'failed' },
      },
    },
    /** Shown with the reason (the order's outcome); the order is still payable. */
    failed: {
      on: {
        'payment.retry': { target: 'paying' },
        'payment.changeMethod': { target: 'choosing' },
        'order.cancel': { target: 'confirmingCancel' },
        'payment.leave': { target: 'idle', actions: ['forget', 'ordersChanged'] },
      },
    },
    done: {
      always: [
        { guard: 'thankYouPage', target: 'idle', actions: [{ type: 'navigate', params: ({ context }) => ({ to: ROUTES.thankYou(context.order?.order_token), external: false }) }, 'forget'] },
        { target: 'idle', actions: ['forget', 'ordersChanged'] },
      ],
    },
    confirmingCancel: {
      on: {
        'cancel.confirm': { target: 'cancelling' },
        'cancel.dismiss': [{ guard: 'hasMethods', target: 'choosing' }, { target: 'idle', actions: 'forget' }],
      },
    },
    cancelling: {
      invoke: {
        id: 'deleteOrder',
        src: 'deleteOrder',
        input: ({ context }) => ({ order_id: context.orderId as number }),
        onDone: { target: 'idle', actions: ['forget', 'ordersChanged'] },
        onError: { target: 'idle', actions: ['forget', 'ordersChanged', { type: 'notify', params: PAYMENT_FAILED_NOTICE }] },
      },
    },
  },
});
