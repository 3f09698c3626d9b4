/**
 * The provider-page modal (RedirectModal) when the buyer comes back without paying: it says what
 * the server said (not paid yet / could not check) instead of a spinner, and offers a way on:
 * check again (`payment.resume`) or My orders (`payment.abandon`: the method's machine ends, its
 * flow goes to the order list). The Omise card popup back from 3-D Secure unconfirmed likewise.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { gbPrimeCardMachine } from '../../machines/payments/gb-prime-card.machine';
import { omiseCardMachine } from '../../machines/payments/omise-card.machine';
import { paySolutionsMachine } from '../../machines/payments/pay-solutions.machine';
import { OmiseCardModal } from '../../src/features/payments/OmiseCardModal';
import { RedirectModal } from '../../src/features/payments/RedirectModal';
import { t } from '../../src/i18n/messages';
import { order, orderRead } from '../machines/models/fixtures';
import { omiseCardModel } from '../machines/models/omise-card.model';
import { gbPrimeCardModel, paySolutionsModel } from '../machines/models/redirects.model';
import { effectSpies, scripted } from '../support/ui-actors';

describe('RedirectModal after a return', () => {
  it('away: a spinner only; back and unpaid: the notice with My orders and Check again; a failed read says so; a paid read closes it', async () => {
    const user = userEvent.setup();
    const s = scripted({
      createPaySolutionsPayment: { ok: paySolutionsModel.outcomes!.createPaySolutionsPayment!.done![0] },
      getOrder: [{ ok: orderRead('notYetReceived', 13) }, { ok: orderRead('notYetReceived', 13) }, { error: new Error('network') }, { ok: orderRead('approved', 13) }],
    });
    const actor = createActor(paySolutionsMachine.provide({ actors: s.actors, actions: effectSpies().actions }), { input: { order: order(13) } }).start();
    const onLeave = vi.fn();
    render(<RedirectModal actorRef={actor} onLeave={onLeave} />);
    await waitFor(() => expect(actor.getSnapshot().matches('awaitingReturn')).toBe(true));
    expect(screen.getByRole('dialog').textContent).toContain(t('redirecting'));
    expect(screen.queryByTestId('redirect-returned')).toBeNull();
    expect(screen.queryByRole('button', { name: t('checkPaymentAgain') })).toBeNull();

    act(() => void actor.send({ type: 'payment.resume' }));
    const notice = await screen.findByTestId('redirect-returned');
    expect(notice.textContent).toBe(t('returnedNotPaid'));
    expect(notice.dataset.state).toBe('unpaid');
    expect(screen.getByRole('button', { name: t('myOrders') })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: t('checkPaymentAgain') }));
    await waitFor(() => expect(screen.getByTestId('redirect-returned').dataset.state).toBe('unchecked'));
    expect(screen.getByTestId('redirect-returned').textContent).toBe(t('returnedUnchecked'));

    await user.click(screen.getByRole('button', { name: t('checkPaymentAgain') }));
    await waitFor(() => expect(actor.getSnapshot().output).toEqual({ result: 'paid' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(onLeave).not.toHaveBeenCalled();
  });

  it('My orders after a return ends the method machine by payment.abandon (leftForOrders: the flow goes to the order list), not by closing the flow', async () => {
    const user = userEvent.setup();
    const s = scripted({
      createGbPrimeCardPayment: { ok: gbPrimeCardModel.outcomes!.createGbPrimeCardPayment!.done![0] },
      getOrder: { ok: orderRead('notYetReceived', 11) },
    });
    const actor = createActor(gbPrimeCardMachine.provide({ actors: s.actors, actions: effectSpies().actions }), { input: { order: order(11), thankYouPage: true } }).start();
    const onLeave = vi.fn();
    render(<RedirectModal actorRef={actor} onLeave={onLeave} />);
    await waitFor(() => expect(actor.getSnapshot().matches('awaitingReturn')).toBe(true));
    act(() => void actor.send({ type: 'payment.resume' }));
    await screen.findByTestId('redirect-returned');
    await user.click(screen.getByRole('button', { name: t('myOrders') }));
    expect(actor.getSnapshot().value).toBe('leftForOrders');
    expect(actor.getSnapshot().output).toEqual({ result: 'toOrders' });
    expect(onLeave).not.toHaveBeenCalled();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('Omise card back from 3-D Secure unconfirmed: the popup says so while it reads again, and My orders ends the machine by payment.abandon', async () => {
    const user = userEvent.setup();
    const charge = omiseCardModel.outcomes!.chargeOmiseCard!.done![2];
    const s = scripted({
      getOmiseCardPublicKey: { ok: omiseCardModel.outcomes!.getOmiseCardPublicKey!.done![0] },
      chargeOmiseCard: { ok: charge },
      getOrder: { ok: orderRead('notYetReceived', 8) },
    });
    const actor = createActor(omiseCardMachine.provide({ actors: s.actors, actions: effectSpies().actions }), { input: { order: order(8) } }).start();
    render(<OmiseCardModal actorRef={actor} tokenize={async () => 'tokn_test_1'} />);
    await waitFor(() => expect(actor.getSnapshot().matches('enteringCard')).toBe(true));
    act(() => void actor.send({ type: 'card.tokenized', token: 'tokn_test_1' }));
    await waitFor(() => expect(actor.getSnapshot().matches('awaitingAuthorization')).toBe(true));
    expect(screen.queryByTestId('omise-not-confirmed')).toBeNull();
    expect(screen.queryByRole('button', { name: t('myOrders') })).toBeNull();
    act(() => void actor.send({ type: 'payment.resume' }));
    expect((await screen.findByTestId('omise-not-confirmed')).textContent).toBe(t('omiseNotConfirmedYet'));
    expect(actor.getSnapshot().value).toBe('awaitingConfirmation');
    await user.click(screen.getByRole('button', { name: t('myOrders') }));
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().output).toEqual({ result: 'toOrders' });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
