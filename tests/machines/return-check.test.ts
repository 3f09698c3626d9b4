/**
 * Back from the provider's page without paying (issue 10's back-button scenario): the machine
 * keeps what the read of the order found (`context.returned`), so the page can say "not paid yet"
 * or "could not check" instead of an endless spinner; a later read that finds the order paid ends
 * the flow as before.
 */
import { describe, expect, it } from 'vitest';
import { createActor, waitFor, type AnyStateMachine } from 'xstate';
import { returnCheck } from '../../machines/payments/return-states.selectors';
import { effectSpies, scripted } from '../support/ui-actors';
import { order, orderRead } from './models/fixtures';
import { gbPrimeCardModel, paySolutionsModel, twoC2pLinkModel } from './models/redirects.model';

const cases = [
  { model: twoC2pLinkModel, create: 'create2c2pPaymentLink', methodId: 10 as const },
  { model: gbPrimeCardModel, create: 'createGbPrimeCardPayment', methodId: 11 as const },
  { model: paySolutionsModel, create: 'createPaySolutionsPayment', methodId: 13 as const },
];

describe('returnCheck after the buyer comes back', () => {
  for (const { model, create, methodId } of cases) {
    it(`${model.machine.id}: null while away, 'unpaid' after an unpaid read, 'unchecked' after a failed one, then paid`, async () => {
      const s = scripted({
        [create]: { ok: model.outcomes![create]!.done![0] },
        // paySolutions reads the order once before leaving
        getOrder: [
          ...(methodId === 13 ? [{ ok: orderRead('notYetReceived', methodId) }] : []),
          { ok: orderRead('notYetReceived', methodId) },
          { error: new Error('network') },
          { ok: orderRead('approved', methodId) },
        ],
      });
      const machine = (model.machine as AnyStateMachine).provide({ actors: s.actors, actions: effectSpies().actions });
      const actor = createActor(machine, { input: { order: order(methodId), thankYouPage: true } }).start();
      const waiting = () => waitFor(actor, (snap) => snap.matches('awaitingReturn'));
      expect(returnCheck(await waiting())).toBeNull();
      actor.send({ type: 'payment.resume' });
      expect(returnCheck(actor.getSnapshot())).toBeNull(); // checking
      await waitFor(actor, (snap) => snap.matches('awaitingReturn') && snap.context.returned !== null);
      expect(returnCheck(actor.getSnapshot())).toBe('unpaid');
      actor.send({ type: 'payment.resume' });
      await waitFor(actor, (snap) => snap.matches('awaitingReturn') && snap.context.returned === 'unchecked');
      expect(returnCheck(actor.getSnapshot())).toBe('unchecked');
      actor.send({ type: 'payment.resume' });
      await waitFor(actor, (snap) => snap.status === 'done');
      expect(actor.getSnapshot().output).toEqual({ result: 'paid' });
      expect(s.unscripted).toEqual([]);
    });
  }
});
