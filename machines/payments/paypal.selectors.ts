import type { SnapshotFrom } from 'xstate';
import type { paypalMachine } from './paypal.machine';

type S = SnapshotFrom<typeof paypalMachine>;

/** The PayPal modal ('pay with PayPal', not closable by an outside click) shows its buttons while onPending or awaiting approval. */
export const selectPaypalButtonsEnabled = (s: S): boolean => s.matches('onPending') || s.matches('awaitingApproval');
/** A spinner over the buttons while our server talks to PayPal. */
export const selectPaypalBusy = (s: S): boolean => s.matches('creatingPaypalOrder') || s.matches('capturing') || s.matches('failure');
/** The PayPal order id the buttons' createOrder callback resolves with (null until created). */
export const selectPaypalOrderId = (s: S): string | null => s.context.paypalOrderId;
/** The modal closes once the flow ended. */
export const selectPaypalModalOpen = (s: S): boolean => s.status === 'active';
/** PayPal holds the capture: the modal says the payment is awaiting PayPal (the order is not paid yet, nor deleted). */
export const selectPaypalCapturePending = (s: S): boolean => s.matches('capturePending');
