import type { SnapshotFrom } from 'xstate';
import type { PaypalProblem, paypalMachine } from './paypal.machine';

type S = SnapshotFrom<typeof paypalMachine>;

/** The PayPal modal ('pay with PayPal', not closable by an outside click) shows its buttons while onPending, awaiting approval or after PayPal could not be reached. */
export const selectPaypalButtonsEnabled = (s: S): boolean => s.matches('onPending') || s.matches('awaitingApproval') || s.matches('buttonError');
/** The PayPal button is shown (not once the capture is pending or unconfirmed: paying again there could pay twice). */
export const selectPaypalButtonShown = (s: S): boolean => !s.matches('capturePending') && !s.matches('captureUnconfirmed');
/** A spinner over the buttons while our server talks to PayPal. */
export const selectPaypalBusy = (s: S): boolean => s.matches('creatingPaypalOrder') || s.matches('capturing') || s.matches('failure');
/** The PayPal order id the buttons' createOrder callback resolves with (null until created). */
export const selectPaypalOrderId = (s: S): string | null => s.context.paypalOrderId;
/** The modal closes once the flow ended. */
export const selectPaypalModalOpen = (s: S): boolean => s.status === 'active';
/** The modal's close button (and Escape) closes it in every state while it is open. */
export const selectPaypalClosable = (s: S): boolean => s.status === 'active' && s.can({ type: 'paypal.close' });
/** Waiting for the buyer in PayPal's window. */
export const selectPaypalAwaitingApproval = (s: S): boolean => s.matches('awaitingApproval');
/** PayPal holds the capture: the modal says the payment is awaiting PayPal (the order is not paid yet, nor deleted). */
export const selectPaypalCapturePending = (s: S): boolean => s.matches('capturePending');
/** Why the buyer is back at the PayPal button, or why the flow stopped (null: nothing to say). */
export const selectPaypalProblem = (s: S): PaypalProblem | null => (s.matches('onPending') || s.matches('buttonError') || s.matches('captureUnconfirmed') ? s.context.problem : null);
