/**
 * What the buyer is told about an order ("what the buyer is told is what the server
 * knows"): the order's state and, for a failed attempt, why — one rule for the server (which
 * computes it into `Order.outcome`) and the browser (which only renders it).
 */

/**
 * The order's number as the buyer reads it everywhere — the thank-you page, the order list, the
 * pay/cancel dialogs and every e-mail: "#" and the order id (never the long order token, which
 * only travels in addresses).
 */
export function orderNumber(orderId: number): string {
  return `#${orderId}`;
}

/** The state of an order as the buyer sees it. */
export const ORDER_STATES = ['paid', 'awaitingPayment', 'awaitingApproval', 'failed', 'cancelled', 'expired', 'rejected'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** Why a payment attempt did not pay, in words every provider's codes map to (catalogue keys `payFail_<reason>`). */
export const PAYMENT_FAILURE_REASONS = [
  'insufficientFunds',
  'cardLostOrStolen',
  'declined',
  'invalidCard',
  'authenticationFailed',
  'cancelled',
  'expired',
  'processingError',
] as const;
export type PaymentFailureReason = (typeof PAYMENT_FAILURE_REASONS)[number];

export type PaymentProvider = 'omise' | 'scb' | '2c2p' | 'gbprime' | 'paysolutions' | 'paypal';

/**
 * Provider decline codes → reason. Omise: failure_code; 2C2P: respCode / channel codes (4xxx
 * from the card gateway); GB Prime Pay: ISO 8583 response codes and status letters; PaySolutions:
 * status; PayPal: issue / capture status. Unknown codes are `declined`.
 */
const PROVIDER_CODES: Readonly<Record<PaymentProvider, Readonly<Record<string, PaymentFailureReason>>>> = {
  omise: {
    insufficient_fund: 'insufficientFunds',
    insufficient_balance: 'insufficientFunds',
    stolen_or_lost_card: 'cardLostOrStolen',
    failed_processing: 'processingError',
    payment_rejected: 'declined',
    invalid_account_number: 'invalidCard',
    invalid_security_code: 'invalidCard',
    failed_3ds: 'authenticationFailed',
    expired_charge: 'expired',
    payment_cancelled: 'cancelled',
  },
  scb: {},
  '2c2p': {
    '4051': 'insufficientFunds',
    '4043': 'cardLostOrStolen',
    '4041': 'cardLostOrStolen',
    '4005': 'declined',
    '4101': 'invalidCard',
    '4102': 'invalidCard',
    // 2C2P's documented card-form codes: 4014 invalid card number, 4054 expired card, 4081 3-D Secure failed
    '4014': 'invalidCard',
    '4054': 'invalidCard',
    '4081': 'authenticationFailed',
    '4046': 'authenticationFailed',
    // Card form (3DS API 9.x) statuses, recorded when the status itself is the reason: AR = 3-D Secure
    // (authentication) rejected, FF = refused by the fraud rules.
    AR: 'authenticationFailed',
    FF: 'declined',
    '0003': 'cancelled',
    cancel: 'cancelled',
    '0999': 'processingError',
  },
  gbprime: {
    '51': 'insufficientFunds',
    '43': 'cardLostOrStolen',
    '41': 'cardLostOrStolen',
    '05': 'declined',
    '54': 'invalidCard',
    '14': 'invalidCard',
    D: 'declined',
    V: 'authenticationFailed',
    E: 'expired',
  },
  paysolutions: {
    NS: 'declined',
    CD: 'cancelled',
    CC: 'cancelled',
  },
  paypal: {
    INSTRUMENT_DECLINED: 'declined',
    DECLINED: 'declined',
    FAILED: 'processingError',
    VOIDED: 'cancelled',
  },
};

/** The reason of a failed attempt (attempt status `failed` | `expired` | `cancelled` and the provider's code). */
export function failureReason(provider: string, status: string, code: string | null): PaymentFailureReason {
  if (status === 'expired' || code === 'expired') return 'expired';
  if (status === 'cancelled' || code === 'cancelled') return 'cancelled';
  const table = (PROVIDER_CODES as Record<string, Record<string, PaymentFailureReason> | undefined>)[provider];
  return (code !== null && table && Object.hasOwn(table, code) ? table[code] : undefined) ?? 'declined';
}

/** The facts the state is read from. */
export interface OrderFacts {
  /** The server's order status (the contract's payment_status plus `cancelled`). */
  status: 'notYetReceived' | 'pendingApproved' | 'approved' | 'rejected' | 'cancelled';
  /** Cancelled by the buyer (deleted) rather than by the auto-cancel sweep. */
  cancelledByBuyer: boolean;
  /** The latest provider attempt, if any. */
  lastAttempt: { provider: string; methodId: number; status: string; code: string | null } | null;
}

export interface OrderOutcome {
  state: OrderState;
  /** For `failed`: why the latest attempt did not pay. */
  reason: PaymentFailureReason | null;
  /** The method of the latest provider attempt (null: none yet). */
  method_id: number | null;
}

/**
 * The order's state: approved → paid; pendingApproved → awaitingApproval; cancelled → cancelled
 * (by the buyer) or expired (auto-cancel); rejected → rejected; unpaid → failed when its latest
 * attempt failed, was cancelled or expired (the order can still be paid again), else awaitingPayment.
 */
export function orderOutcome(f: OrderFacts): OrderOutcome {
  const method_id = f.lastAttempt?.methodId ?? null;
  switch (f.status) {
    case 'approved':
      return { state: 'paid', reason: null, method_id };
    case 'pendingApproved':
      return { state: 'awaitingApproval', reason: null, method_id };
    case 'cancelled':
      return { state: f.cancelledByBuyer ? 'cancelled' : 'expired', reason: null, method_id };
    case 'rejected':
      return { state: 'rejected', reason: null, method_id };
    default: {
      const a = f.lastAttempt;
      if (a && (a.status === 'failed' || a.status === 'expired' || a.status === 'cancelled')) {
        return { state: 'failed', reason: failureReason(a.provider, a.status, a.code), method_id };
      }
      return { state: 'awaitingPayment', reason: null, method_id };
    }
  }
}

/** An order the buyer can still pay (again) or cancel. */
export function isPayable(state: OrderState): boolean {
  return state === 'awaitingPayment' || state === 'failed';
}
