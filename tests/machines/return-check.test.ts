/**
 * Back from the provider's page without paying (the back-button scenario): the machine
 * keeps what the read of the order found (`context.returned`), so the page can say "not paid yet"
 * or "could not check" instead of an endless spinner; a later read that finds the order paid ends
 * the flow as before.
 */
import { describe, expect, it } from 'vitest';
import { createActor, waitFor, type AnyStateMachine } from 'xstate';
import { returnCheck } from '../../machines/payments/return-states.selectors';
import { effectSpies, scripted } from '../support/ui-actors';
import { order, orderRead } from './models/fixtures';
import { gbPrimeCardModel, paySolutionsModel, twoC2pCardModel, twoC2pLinkModel } from './models/redirects.model';
import { twoC2pCardMachine } from '../../machines/payments/two-c2p-card.machine';

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

describe('returnCheck for the 2C2P card form (3), back from the gateway page', () => {
  it("twoC2pCard: null while away, 'unpaid' after an unpaid read, 'unchecked' after a failed one, then paid", async () => {
    const s = scripted({
      create2c2pCardRequest: { ok: twoC2pCardModel.outcomes!.create2c2pCardRequest!.done![0] },
      getOrder: [{ ok: orderRead('notYetReceived', 3) }, { error: new Error('network') }, { ok: orderRead('approved', 3) }],
    });
    const machine = twoC2pCardMachine.provide({ actors: s.actors as never, actions: effectSpies().actions as never });
    const actor = createActor(machine, { input: { order: order(3) } }).start();
    actor.send({ type: 'card.encrypted', card: { encryptedCardInfo: 'ENC', maskedCardInfo: '411111XXXXXX1111', expMonthCardInfo: '12', expYearCardInfo: '2030' } });
    const check = () => returnCheck(actor.getSnapshot(), 'awaitingResult');
    await waitFor(actor, (snap) => snap.matches('awaitingResult'));
    expect(check()).toBeNull();
    actor.send({ type: 'payment.resume' });
    await waitFor(actor, (snap) => snap.matches('awaitingResult') && snap.context.returned !== null);
    expect(check()).toBe('unpaid');
    actor.send({ type: 'payment.resume' });
    await waitFor(actor, (snap) => snap.matches('awaitingResult') && snap.context.returned === 'unchecked');
    expect(check()).toBe('unchecked');
    actor.send({ type: 'payment.resume' });
    await waitFor(actor, (snap) => snap.status === 'done');
    expect(actor.getSnapshot().output).toEqual({ result: 'paid' });
    expect(s.unscripted).toEqual([]);
  });
});
