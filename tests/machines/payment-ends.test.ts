/**
 * The ends a flow takes from a payment machine are the ones the machine has (payment.ts
 * `finalOutputs`, methods.ts `endsFor`): no branch for a result the machine never gives, so the
 * drawings, the model walks and the browser's coverage count only transitions the app can take.
 */
import { describe, expect, it } from 'vitest';
import { createMachine, type AnyStateNode } from 'xstate';
import { checkoutMachine } from '../../machines/checkout/checkout.machine';
import { endsFor, PAYMENT_ACTOR_IDS, PAYMENT_MACHINES, PAYMENT_RESULTS, type PaymentActorId } from '../../machines/payments/methods';
import { orderPaymentMachine } from '../../machines/payments/order-payment.machine';
import { finalOutputs, type PaymentResult } from '../../machines/payments/payment';

/** The `onDone` transitions of a flow's `paying.<id>` state: their targets, and whether each has a guard. */
function settled(root: AnyStateNode, id: PaymentActorId): { target: string; guarded: boolean }[] {
  const state = root.states.paying!.states[id]!;
  return state.transitions
    .get(`xstate.done.actor.${id}`)!
    .map((t) => ({ target: t.target![0]!.id, guarded: t.guard !== undefined }));
}

describe('the ends of a payment machine', () => {
  it("are its final states' outputs, each once", () => {
    expect(finalOutputs(PAYMENT_MACHINES.bankTransfer)).toEqual([{ result: 'pending' }]);
    expect(finalOutputs(PAYMENT_MACHINES.paypal)).toEqual([{ result: 'paid' }, { result: 'pending' }, { result: 'failed', orderDeleted: true }, { result: 'toOrders' }]);
    expect(finalOutputs(PAYMENT_MACHINES.omiseCard)).toEqual([{ result: 'paid' }, { result: 'toOrders' }]);
    expect([...PAYMENT_RESULTS.gbPrimeCard].sort()).toEqual(['failed', 'paid', 'toOrders']);
  });

  it('refuses a final state without an output of its own', () => {
    const machine = createMachine({ id: 'bare', initial: 'a', states: { a: { on: { go: 'done' } }, done: { type: 'final' } } });
    expect(() => finalOutputs(machine)).toThrow('bare: final state bare.done gives no PaymentOutput object');
  });

  it("keep a flow's branches the machine can take, the last without its guard, and refuse a result no branch takes", () => {
    const ends: readonly (readonly [readonly PaymentResult[], { guard?: string; target: string }])[] = [
      [['paid', 'pending'], { guard: 'ok', target: 'a' }],
      [['failed'], { guard: 'no', target: 'b' }],
      [['toOrders'], { target: 'c' }],
    ];
    expect(endsFor('bankTransfer', ends)).toEqual([{ target: 'a' }]);
    expect(endsFor('omiseCard', ends)).toEqual([{ guard: 'ok', target: 'a' }, { target: 'c' }]);
    expect(endsFor('paySolutions', ends)).toEqual([{ guard: 'ok', target: 'a' }, { guard: 'no', target: 'b' }, { target: 'c' }]);
    expect(() => endsFor<{ guard?: string; target: string }>('paypal', [[['paid'], { target: 'a' }]])).toThrow('paypal: no end takes its result pending, failed, toOrders');
  });

  it('the checkout: a failure branch only for a machine that ends not paid, the order list only for one that sends the buyer there', () => {
    const root = checkoutMachine.root;
    expect(settled(root, 'bankTransfer')).toEqual([{ target: 'checkout.clearingCart', guarded: false }]);
    expect(settled(root, 'omiseCard')).toEqual([{ target: 'checkout.clearingCart', guarded: true }, { target: 'checkout.leftForOrders', guarded: false }]);
    expect(settled(root, 'paypal')).toEqual([
      { target: 'checkout.clearingCart', guarded: true },
      { target: 'checkout.editing', guarded: true },
      { target: 'checkout.leftForOrders', guarded: false },
    ]);
    for (const id of PAYMENT_ACTOR_IDS) {
      const results = PAYMENT_RESULTS[id];
      const targets = settled(root, id).map((t) => t.target);
      expect(targets.includes('checkout.editing'), id).toBe(results.has('failed'));
      expect(targets.includes('checkout.leftForOrders'), id).toBe(results.has('toOrders'));
    }
  });

  it('pay again: the result read back only for a machine that can end without handing the order over', () => {
    const root = orderPaymentMachine.root;
    expect(settled(root, 'bankTransfer')).toEqual([{ target: 'orderPayment.done', guarded: false }]);
    for (const id of PAYMENT_ACTOR_IDS.filter((x) => x !== 'bankTransfer')) {
      expect(settled(root, id), id).toEqual([{ target: 'orderPayment.done', guarded: true }, { target: 'orderPayment.readingResult', guarded: false }]);
    }
  });
});
