/**
 * The Idempotency-Key of POST /private/cart/order: made before the request, kept while the order's
 * content stays the same (a retry of the same click replays the same order), new when it changes.
 */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}
