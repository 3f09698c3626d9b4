/** The registry of payment methods (machines/payments/methods.ts) against the domain's list. */
import { describe, expect, it } from 'vitest';
import { PAYMENT_METHOD_IDS } from '../../domain/payment-methods';
import { METHOD_ACTORS, methodActor, PAYMENT_ACTOR_IDS, PAYMENT_MACHINES, PAYMENT_METHODS, paymentMethodEntry } from '../../machines/payments/methods';

describe('payment registry', () => {
  it('has one entry per method of the domain, and no other', () => {
    expect(Object.keys(PAYMENT_METHODS).map(Number).sort((a, b) => a - b)).toEqual([...PAYMENT_METHOD_IDS].sort((a, b) => a - b));
  });

  it("each entry's machine has the entry's invoke id as its id, and invoke ids are unique", () => {
    for (const entry of Object.values(PAYMENT_METHODS)) expect(entry.machine.id).toBe(entry.actor);
    expect(new Set(PAYMENT_ACTOR_IDS).size).toBe(PAYMENT_METHOD_IDS.length);
    expect(Object.keys(PAYMENT_MACHINES).sort()).toEqual([...PAYMENT_ACTOR_IDS].sort());
  });

  it('QR methods share one machine definition shape (the family factory), hosted redirects end through the same states', () => {
    const family = (name: string) => Object.values(PAYMENT_METHODS).filter((e) => e.family === name);
    const qr = family('qr').map((e) => Object.keys(e.machine.root.states));
    for (const states of qr) expect(states).toEqual(expect.arrayContaining(['creatingQr', 'awaitingScan', 'expired', 'failed', 'paid', 'rejected']));
    for (const e of family('hostedRedirect')) expect(Object.keys(e.machine.root.states)).toEqual(expect.arrayContaining(['reconciling', 'failed', 'paid', 'leftForOrders']));
  });

  it('an unknown method falls back to bank transfer (the default method)', () => {
    expect(methodActor(undefined)).toBe('bankTransfer');
    expect(methodActor(7)).toBe('bankTransfer');
    expect(paymentMethodEntry(12).actor).toBe('gbPrimePromptPay');
    expect(METHOD_ACTORS[13]).toBe('paySolutions');
  });
});
