/**
 * No payment modal can hang: in every payment machine, after each request ends (its answer, a
 * refusal, a server error or no answer at all: every done and error outcome its model lists), the
 * flow is somewhere the buyer is not stuck — it ended (the checkout then shows the result, the
 * failure notice or the order list), or the buyer can act (pay again, close, pay later, change
 * method), or it is visibly still working (another request or a timer of its own runs).
 * A state with none of these is a modal that hangs.
 */
import { describe, expect, it } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import type { MachineModel } from './support/model';
import { candidateEvents, walk } from './support/graph';
import { bankTransferModel } from './models/bank-transfer.model';
import { omiseCardModel } from './models/omise-card.model';
import { orderPaymentModel } from './models/order-payment.model';
import { paypalModel } from './models/paypal.model';
import { gbPrimePromptPayModel, omisePromptPayModel } from './models/promptpay.model';
import { gbPrimeCardModel, paySolutionsModel, twoC2pCardModel, twoC2pLinkModel } from './models/redirects.model';
import { scbQrModel } from './models/scb-qr.model';

/**
 * Per machine: its model, and whether the page gives its modal a close button of its own
 * (PaymentHost's onLeave: the checkout's payment.leave, the order stays payable) — the machines
 * without one must offer the buyer a way out themselves.
 */
const METHODS: { name: string; model: MachineModel; hostLeave: boolean; leavesPage?: string[] }[] = [
  { name: 'bank transfer (1)', model: bankTransferModel as unknown as MachineModel, hostLeave: false },
  { name: 'PayPal (2)', model: paypalModel as unknown as MachineModel, hostLeave: false },
  { name: '2C2P card form (3)', model: twoC2pCardModel as unknown as MachineModel, hostLeave: true },
  { name: 'SCB QR (4)', model: scbQrModel as unknown as MachineModel, hostLeave: true },
  // awaitingAuthorization: its entry takes the buyer to the bank's 3-D Secure page (navigate, external); the return resumes the flow
  { name: 'Omise card (8)', model: omiseCardModel as unknown as MachineModel, hostLeave: false, leavesPage: ['awaitingAuthorization'] },
  { name: 'Omise PromptPay (9)', model: omisePromptPayModel as unknown as MachineModel, hostLeave: true },
  { name: '2C2P link (3, 10)', model: twoC2pLinkModel as unknown as MachineModel, hostLeave: true },
  { name: 'GB Prime card (11)', model: gbPrimeCardModel as unknown as MachineModel, hostLeave: true },
  { name: 'GB Prime PromptPay (12)', model: gbPrimePromptPayModel as unknown as MachineModel, hostLeave: true },
  { name: 'PaySolutions (13)', model: paySolutionsModel as unknown as MachineModel, hostLeave: true },
  { name: 'pay again from the order list', model: orderPaymentModel as unknown as MachineModel, hostLeave: false },
];

/** Events the app sends by itself, not the buyer (a reload resumes the flow). */
const NOT_THE_BUYER = new Set(['payment.resume']);

const isRequestEnd = (e: EventObject) => /^xstate\.(done|error)\.actor\./.test(e.type) && !/^xstate\.done\.actor\.0\./.test(e.type);

/** Why a snapshot is not a hang, or null when it is one. */
function wayOn(model: MachineModel, s: AnyMachineSnapshot, hostLeave: boolean, leavesPage: readonly string[] = []): string | null {
  if (s.status === 'done') {
    const result = (s.output as { result?: string } | undefined)?.result;
    return result && ['paid', 'pending', 'failed', 'toOrders'].includes(result) ? `ended ${result}` : null;
  }
  const buyer = model.userEvents.filter((e) => !NOT_THE_BUYER.has(e.type) && s.can(e)).map((e) => e.type);
  if (buyer.length) return `buyer: ${[...new Set(buyer)].join(', ')}`;
  const working = candidateEvents(model, s).filter((e) => !model.userEvents.includes(e as never));
  if (working.length) return `working: ${working.map((e) => e.type).join(', ')}`;
  if (hostLeave) return 'the modal closes (payment.leave)';
  if (leavesPage.some((v) => s.matches(v))) return 'the page is left for the bank';
  return null;
}

describe('no payment modal can hang: every request end leaves a way on', () => {
  for (const { name, model, hostLeave, leavesPage } of METHODS) {
    it(name, () => {
      const ends = new Map<string, string>();
      const hangs: string[] = [];
      for (const path of walk(model)) {
        for (const step of path.steps) {
          if (!isRequestEnd(step.event)) continue;
          const where = `${step.event.type} → ${JSON.stringify(step.state.value)}`;
          // the buyer's events of the whole model (a variant walks a few of them only)
          const why = wayOn({ ...path.model, userEvents: [...model.userEvents, ...path.model.userEvents] }, step.state, hostLeave, leavesPage);
          if (why === null) hangs.push(`${where} (path: ${path.description})`);
          else ends.set(where, why);
        }
      }
      expect(hangs, `states after a request end where the buyer is stuck:\n${hangs.join('\n')}`).toEqual([]);
      // The walk saw request ends with each kind of answer (done and error).
      expect([...ends.keys()].some((k) => k.startsWith('xstate.done.actor.'))).toBe(true);
      expect([...ends.keys()].some((k) => k.startsWith('xstate.error.actor.'))).toBe(true);
    }, 60_000);
  }

  it('PayPal: the modal can be closed in every open state, whatever the last request answered', () => {
    for (const path of walk(paypalModel as unknown as MachineModel)) {
      for (const step of path.steps) {
        if (step.state.status === 'active') expect(step.state.can({ type: 'paypal.close' }), JSON.stringify(step.state.value)).toBe(true);
      }
    }
  }, 60_000);

  it('the check finds a hang: a machine state after an error with no buyer event, no request and no timer', async () => {
    const { setup } = await import('xstate');
    const { fromPromise } = await import('xstate');
    const hung = setup({ actors: { ask: fromPromise(async () => 1) } }).createMachine({
      id: 'hung',
      initial: 'asking',
      states: { asking: { invoke: { id: 'ask', src: 'ask', onError: 'stuck' } }, stuck: {} },
    });
    const model = { machine: hung, file: '', userEvents: [{ type: 'x.close' }], outcomes: { ask: { done: [1], error: [new Error('network')] } }, accepts: () => [] } as unknown as MachineModel;
    const after = walk(model).flatMap((p) => p.steps).find((st) => st.event.type === 'xstate.error.actor.ask')!;
    expect(wayOn(model, after.state, false)).toBeNull();
  });
});
