/**
 * One interface for every payment provider (after Medusa's payment provider interface:
 * initiatePayment / getPaymentStatus / getWebhookActionAndData / refundPayment / cancelPayment).
 *
 * The payment handlers, the scheduled re-read of pending attempts and the back office speak to a
 * provider only through this interface; what differs per provider (the wire format, signatures,
 * units) stays inside its adapter (`server/providers/<provider>.ts`), which cites the published
 * source of every field in `docs/providers/<provider>.md`. Adding a provider is one adapter that
 * implements this, one loopback sandbox imitating the provider's published API, one doc.
 *
 * Amounts are integer minor units of `currency` everywhere in this interface; adapters convert at
 * the wire (satang, 12-digit hundredths, decimal strings...).
 */

export type ProviderName = 'omise' | 'scb' | '2c2p' | 'gbprime' | 'paysolutions' | 'paypal';
export type Currency = 'THB' | 'USD';

/** A provider's answer about one attempt, in the shop's words (never the provider's text). */
export type ProviderStatus =
  | { kind: 'paid'; paidAmount: number; currency: Currency; txnId?: string | null }
  | { kind: 'pending' }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'expired' }
  | { kind: 'cancelled' };

/** One attempt as the shop stored it (`payments` row): our reference, the provider's own id when it has one. */
export interface AttemptRef {
  /** Our reference sent to the provider (invoice no, reference no, ref1...), unique per provider. */
  ref: string;
  /** The provider's own id of the attempt (charge id, PayPal order id, GB Prime Pay gbpReferenceNo...), when known. */
  providerRef?: string | null;
  amount: number;
  currency: Currency;
  /** What the adapter stored when the attempt started (token, kind of page, capture id...). */
  details?: Record<string, unknown>;
}

export interface InitiateInput {
  ref: string;
  orderId: number;
  amount: number;
  currency: Currency;
  description: string;
  /** Where the provider sends the buyer back (browser origin). */
  returnUrl: string;
  /** Where the provider's server notifies us (callback origin). */
  notifyUrl: string;
  customer?: { name?: string; email?: string; phone?: string };
  /** The buyer's page language, for a provider whose hosted page takes one (PaySolutions' `lang`). */
  locale?: 'th' | 'en';
  /** Method-specific input: a card token, an encrypted card block, a source type, installment periods... */
  input?: Record<string, unknown>;
}

/** How the buyer goes on after a payment started: one shape per family of payment. */
export type Initiated =
  | { kind: 'redirect'; url: string; providerRef?: string | null }
  | { kind: 'form'; action: string; method: 'POST'; fields: Record<string, string>; providerRef?: string | null }
  | { kind: 'qr'; payload: string; imageUrl?: string | null; expiresAt: string | null; providerRef?: string | null }
  | { kind: 'approval'; url: string; providerRef: string }
  | { kind: 'done'; status: ProviderStatus; providerRef?: string | null };

/** A notification whose origin was verified the way the provider documents. */
export interface VerifiedNotification {
  /** Our attempt reference (or the provider's own id, `byProviderRef`) the notification is about. */
  ref: string;
  byProviderRef?: boolean;
  /** The provider's event / delivery id (applied once); null when the provider gives none. */
  eventId: string | null;
  /**
   * The status the verified notification states. Where the provider offers a status read, the
   * caller still applies `getPaymentStatus` (the notification only says "look again").
   */
  claimed?: ProviderStatus;
}

export interface IncomingNotification {
  headers: Record<string, string | string[] | undefined>;
  /** The body exactly as received (signatures are over bytes). */
  rawBody: string;
  /** The parsed body (JSON object or form fields). */
  body: unknown;
}

export type RefundResult =
  /** The provider refunded (or accepted the refund) through its API. */
  | { kind: 'refunded'; refundId: string; amount: number; pending?: boolean }
  /** The provider offers no refund call: a person refunds outside, the shop records it. */
  | { kind: 'manual' };

export interface PaymentProvider {
  readonly name: ProviderName;
  readonly capabilities: {
    /** `api`: `refundPayment` calls the provider; `manual`: it answers `{ kind: 'manual' }`. */
    refund: 'api' | 'manual';
    /** The provider can void / expire an open attempt. */
    cancel: boolean;
  };
  /** Start an attempt (Medusa's initiatePayment). Method families read what they need from `input`. */
  initiatePayment(input: InitiateInput): Promise<Initiated>;
  /** Re-read one attempt's status from the provider: notifications, return pages, the scheduled re-read. */
  getPaymentStatus(attempt: AttemptRef): Promise<ProviderStatus>;
  /** Verify a notification as the provider documents it; null when it is not genuine. */
  verifyNotification(n: IncomingNotification): Promise<VerifiedNotification | null>;
  /** Refund `amount` of a paid attempt; `idempotencyKey` makes a repeated or raced request refund once. */
  refundPayment(attempt: AttemptRef & { txnId: string | null }, amount: number, idempotencyKey: string): Promise<RefundResult>;
  /** Void / expire an open attempt where the provider can (`capabilities.cancel`). */
  cancelPayment?(attempt: AttemptRef): Promise<ProviderStatus>;
}
