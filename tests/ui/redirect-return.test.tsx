/**
 * The provider-page modal (RedirectModal) when the buyer comes back without paying: it says what
 * the server said (not paid yet / could not check) instead of a spinner, and offers a way on:
 * check again (`payment.resume`) or the order list (`onLeave`).
 */
import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createActor } from 'xstate';
import { paySolutionsMachine } from '../../machines/payments/pay-solutions.machine';
import { RedirectModal } from '../../src/features/payments/RedirectModal';
import { t } from '../../src/i18n/messages';
import { order, orderRead } from '../machines/models/fixtures';
import { paySolutionsModel } from '../machines/models/redirects.model';
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
    await user.click(screen.getByRole('button', { name: t('myOrders') }));
    expect(onLeave).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: t('checkPaymentAgain') }));
    await waitFor(() => expect(screen.getByTestId('redirect-returned').dataset.state).toBe('unchecked'));
    expect(screen.getByTestId('redirect-returned').textContent).toBe(t('returnedUnchecked'));

    await user.click(screen.getByRole('button', { name: t('checkPaymentAgain') }));
    await waitFor(() => expect(actor.getSnapshot().output).toEqual({ result: 'paid' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });
});
